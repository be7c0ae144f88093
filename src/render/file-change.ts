/** A person's view of a Write or Edit: a header line and the coloured diff, short unless verbose. */
import type { RenderOptions } from "../tool/types.ts";
import { paint } from "./colour.ts";
import { formatHunks, type Hunk } from "./diff.ts";

export interface FileChange {
  filePath: string;
  kind: "create" | "update";
  hunks: Hunk[];
  added: number;
  removed: number;
}

const SHORT_DIFF_LINES = 40;

export function renderFileChange(change: FileChange, opts: RenderOptions): string {
  const verb = change.kind === "create" ? "Created" : "Updated";
  const counts = `${paint(`+${change.added}`, "green", opts)} ${paint(`-${change.removed}`, "red", opts)}`;
  const header = `${paint(verb, "bold", opts)} ${change.filePath} (${counts})`;
  const lines = formatHunks(change.hunks, opts).split("\n").filter(Boolean);
  if (opts.verbose || lines.length <= SHORT_DIFF_LINES) return [header, ...lines].join("\n");
  const hidden = lines.length - SHORT_DIFF_LINES;
  return [header, ...lines.slice(0, SHORT_DIFF_LINES), paint(`… ${hidden} more diff lines`, "dim", opts)]
    .join("\n");
}
