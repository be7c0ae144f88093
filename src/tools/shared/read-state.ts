/**
 * Read-before-write: Write and Edit only change a file the session has read, and only while it is
 * unchanged since (same mtime and size), so the model never overwrites what it has not seen.
 */
import type { Stats } from "node:fs";
import { shellQuote } from "../../tool/shell-quote.ts";
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
  if (!seen) return notReadReason(ctx, path);
  if (seen.mtimeMs !== stats.mtimeMs || seen.size !== stats.size) {
    return `${path} has changed since it was last read (by the user, a formatter or another tool). ` +
      "Read it again before changing it.";
  }
  return undefined;
}

/**
 * The file was not read in this session, said so the caller can act on it: from the command line,
 * where each `toolrt run` is a session of its own unless it is named, that means `--session NAME`.
 */
function notReadReason(ctx: ToolContext, path: string): string {
  const name = ctx.session.name;
  const input = shellQuote(JSON.stringify({ file_path: path }));
  if (name !== undefined) {
    return `${path} has not been read in session ${name}. Read it first in this session ` +
      `(toolrt run --session ${name} Read ${input}), then change it.`;
  }
  if (ctx.invokedBy === "cli") {
    return `${path} has not been read in this session, and each toolrt run is a session of its own ` +
      `unless it is named: read it with toolrt run --session NAME Read ${input}, ` +
      "then run this call again with the same --session NAME.";
  }
  return `${path} has not been read in this session. Read it first, then change it.`;
}
