/** Exact string replacement, with the refusals that keep an edit from landing somewhere unmeant. */
import { ToolError } from "../shared/errors.ts";
import { explainMissingString } from "./near-match.ts";

const MAX_LINES_LISTED = 10;

/**
 * `text` with `oldString` replaced by `newString` (all texts with `\n` endings). Replacement is
 * literal: `$&` and friends in `newString` mean nothing.
 */
export function applyEdit(
  path: string,
  text: string,
  edit: { oldString: string; newString: string; replaceAll: boolean },
): { text: string; replacements: number } {
  const parts = text.split(edit.oldString);
  const occurrences = parts.length - 1;
  if (occurrences === 0) throw new ToolError(notFoundMessage(path, text, edit.oldString));
  if (occurrences > 1 && !edit.replaceAll) {
    const lines = matchLines(parts, countNewlines(edit.oldString)).slice(0, MAX_LINES_LISTED).join(", ");
    throw new ToolError(
      `old_string occurs ${occurrences} times in ${path} (at lines ${lines}${
        occurrences > MAX_LINES_LISTED ? ", …" : ""
      }). Include more surrounding text to make it unique, or set replace_all to true to replace every one.`,
    );
  }
  if (edit.replaceAll) return { text: parts.join(edit.newString), replacements: occurrences };
  return { text: parts[0] + edit.newString + parts.slice(1).join(edit.oldString), replacements: 1 };
}

/** The 1-based line on which each occurrence starts, from the text between occurrences. */
function matchLines(parts: string[], newlinesPerMatch: number): number[] {
  const lines: number[] = [];
  let line = 1;
  parts.slice(0, -1).forEach((part, i) => {
    line += countNewlines(part) + (i > 0 ? newlinesPerMatch : 0);
    lines.push(line);
  });
  return lines;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

function notFoundMessage(path: string, text: string, oldString: string): string {
  const { reason, candidates } = explainMissingString(text, oldString);
  const shown = candidates.map((c) =>
    c.text.split("\n").map((line, i) => `${String(c.line + i).padStart(6)}\t${line}`).join("\n")
  );
  return [`String to replace not found in ${path}. ${reason}`, ...shown].join("\n");
}
