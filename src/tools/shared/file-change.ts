/**
 * The write half shared by Write and Edit: the read-before-write gate, writing with parent
 * directories, recording the new state, and the diff the model and the person see.
 */
import type { Stats } from "node:fs";
import { mkdir, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { diffLines, diffStats, formatHunks } from "../../render/diff.ts";
import type { FileChange } from "../../render/file-change.ts";
import { plural } from "../../render/units.ts";
import type { ToolContext, ValidationResult } from "../../tool/types.ts";
import { ToolError } from "./errors.ts";
import { statOrUndefined } from "./files.ts";
import { recordFileState, staleReason } from "./read-state.ts";

/** The reason `path` may not be changed now, or undefined (a new file, or one read and unchanged). */
async function changeBlocker(ctx: ToolContext, path: string): Promise<string | undefined> {
  const stats = await statOrUndefined(path);
  if (!stats) return undefined;
  if (stats.isDirectory()) return `${path} is a directory, not a file.`;
  return staleReason(ctx, path, stats);
}

export async function validateChange(ctx: ToolContext, path: string): Promise<ValidationResult> {
  const blocker = await changeBlocker(ctx, path);
  return blocker ? { ok: false, message: blocker, errorCode: "read_before_write" } : { ok: true };
}

/** Checked again at call time: the file may have changed between validation and the call. */
export async function assertChangeable(ctx: ToolContext, path: string): Promise<Stats | undefined> {
  const blocker = await changeBlocker(ctx, path);
  if (blocker) throw new ToolError(blocker);
  return statOrUndefined(path);
}

/**
 * Writes `bytes` to `path` and records it as read. `before` and `after` are the texts compared for
 * the diff (line endings normalised), `before` undefined for a new file.
 */
export async function commitChange(
  ctx: ToolContext,
  path: string,
  change: { before: string | undefined; after: string; bytes: string },
): Promise<FileChange> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, change.bytes);
  recordFileState(ctx, path, await stat(path));
  const hunks = diffLines(change.before ?? "", change.after);
  return {
    filePath: path,
    kind: change.before === undefined ? "create" : "update",
    hunks,
    ...diffStats(hunks),
  };
}

const MAX_DIFF_CHARS_FOR_MODEL = 8000;

/** The model's view of a change: what happened and, for updates, the diff (bounded). */
export function describeChange(change: FileChange): string {
  if (change.kind === "create") {
    return `Created ${change.filePath} (${plural(change.added, "line")}).`;
  }
  const head = `Updated ${change.filePath} (+${change.added} -${change.removed}).`;
  if (change.hunks.length === 0) return `${head} The content is unchanged.`;
  let diff = formatHunks(change.hunks);
  if (diff.length > MAX_DIFF_CHARS_FOR_MODEL) {
    diff = `${diff.slice(0, MAX_DIFF_CHARS_FOR_MODEL)}\n… (diff cut; Read the file to see the rest)`;
  }
  return `${head}\n${diff}`;
}
