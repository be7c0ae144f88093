/**
 * Read-before-write: Write and Edit only change a file the session has read, and only while it is
 * unchanged since (same mtime and size), so the model never overwrites what it has not seen.
 */
import type { Stats } from "node:fs";
import type { ToolContext } from "../../tool/types.ts";

export function recordFileState(
  ctx: ToolContext,
  path: string,
  stats: Pick<Stats, "mtimeMs" | "size">,
): void {
  ctx.session.readFiles.set(path, { mtimeMs: stats.mtimeMs, size: stats.size });
}

/** Why an existing file may not be changed now, or undefined when it may. */
export function staleReason(
  ctx: ToolContext,
  path: string,
  stats: Pick<Stats, "mtimeMs" | "size">,
): string | undefined {
  const seen = ctx.session.readFiles.get(path);
  if (!seen) return `${path} has not been read in this session. Read it first, then change it.`;
  if (seen.mtimeMs !== stats.mtimeMs || seen.size !== stats.size) {
    return `${path} has changed since it was last read (by the user, a formatter or another tool). ` +
      "Read it again before changing it.";
  }
  return undefined;
}
