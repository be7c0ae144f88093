/** The diagnostics a language server reports for a file, as text the model reads after an edit. */
import type { Diagnostic } from "../../lsp/protocol.ts";
import { displayPath } from "../shared/paths.ts";

const MAX_DIAGNOSTICS_SHOWN = 20;

const SEVERITY = ["", "error", "warning", "info", "hint"] as const;

/** Errors first, then by position; at most `limit`, with a count of the rest. */
export function formatDiagnostics(
  path: string,
  cwd: string,
  diagnostics: readonly Diagnostic[],
  limit = MAX_DIAGNOSTICS_SHOWN,
): string {
  const shown = displayPath(path, cwd);
  if (diagnostics.length === 0) return `No diagnostics for ${shown}.`;
  const sorted = [...diagnostics].sort((a, b) =>
    (a.severity ?? 1) - (b.severity ?? 1) ||
    a.range.start.line - b.range.start.line ||
    a.range.start.character - b.range.start.character
  );
  const errors = diagnostics.filter((d) => (d.severity ?? 1) === 1).length;
  const lines = sorted.slice(0, limit).map((d) => {
    const where = `${d.range.start.line + 1}:${d.range.start.character + 1}`;
    const code = d.code !== undefined ? ` [${d.source ? `${d.source} ` : ""}${d.code}]` : "";
    return `  ${where} ${SEVERITY[d.severity ?? 1]}${code}: ${d.message.split("\n")[0]}`;
  });
  const rest = sorted.length - lines.length;
  if (rest > 0) lines.push(`  ... and ${rest} more`);
  const summary = `${errors} error${errors === 1 ? "" : "s"}, ${diagnostics.length} diagnostic` +
    `${diagnostics.length === 1 ? "" : "s"} in all`;
  return `Diagnostics for ${shown} (${summary}):\n${lines.join("\n")}`;
}
