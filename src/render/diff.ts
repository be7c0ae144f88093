/**
 * Line diffs for Write and Edit: structured hunks for the result data, unified text for the model
 * and a coloured rendering for people.
 */
import { paint } from "./colour.ts";

export interface DiffLine {
  kind: "context" | "add" | "remove";
  text: string;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

/** Past this many cells the middle of a diff is shown as removed-then-added instead of aligned. */
const MAX_LCS_CELLS = 4_000_000;

export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

export function diffLines(before: string, after: string, context = 3): Hunk[] {
  return toHunks(editScript(splitLines(before), splitLines(after)), context);
}

export function diffStats(hunks: Hunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of hunks.flatMap((h) => h.lines)) {
    if (line.kind === "add") added++;
    if (line.kind === "remove") removed++;
  }
  return { added, removed };
}

/** Unified-diff body (`@@` headers, ` `/`+`/`-` prefixes), coloured when asked. */
export function formatHunks(hunks: Hunk[], opts: { color: boolean } = { color: false }): string {
  const out: string[] = [];
  for (const h of hunks) {
    out.push(paint(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, "cyan", opts));
    for (const line of h.lines) {
      if (line.kind === "add") out.push(paint(`+${line.text}`, "green", opts));
      else if (line.kind === "remove") out.push(paint(`-${line.text}`, "red", opts));
      else out.push(` ${line.text}`);
    }
  }
  return out.join("\n");
}

function editScript(a: string[], b: string[]): DiffLine[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const context = (text: string): DiffLine => ({ kind: "context", text });
  return [
    ...a.slice(0, start).map(context),
    ...alignMiddle(a.slice(start, endA), b.slice(start, endB)),
    ...a.slice(endA).map(context),
  ];
}

function alignMiddle(a: string[], b: string[]): DiffLine[] {
  const removeAll = a.map((text): DiffLine => ({ kind: "remove", text }));
  const addAll = b.map((text): DiffLine => ({ kind: "add", text }));
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_LCS_CELLS) {
    return [...removeAll, ...addAll];
  }
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j]
        ? lcs[(i + 1) * width + j + 1]! + 1
        : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: "context", text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      out.push({ kind: "remove", text: a[i++]! });
    } else {
      out.push({ kind: "add", text: b[j++]! });
    }
  }
  return [...out, ...removeAll.slice(i), ...addAll.slice(j)];
}

function toHunks(script: DiffLine[], context: number): Hunk[] {
  const hunks: Hunk[] = [];
  let oldLine = 1;
  let newLine = 1;
  let current: Hunk | undefined;
  let trailingContext = 0;
  script.forEach((line, index) => {
    const changed = line.kind !== "context";
    const nearChange = changed ||
      script.slice(index + 1, index + 1 + context).some((l) => l.kind !== "context");
    if (changed || nearChange || (current && trailingContext < context)) {
      if (!current) {
        current = { oldStart: oldLine, oldLines: 0, newStart: newLine, newLines: 0, lines: [] };
        hunks.push(current);
      }
      current.lines.push(line);
      if (line.kind !== "add") current.oldLines++;
      if (line.kind !== "remove") current.newLines++;
      trailingContext = changed ? 0 : trailingContext + 1;
    } else {
      current = undefined;
    }
    if (line.kind !== "add") oldLine++;
    if (line.kind !== "remove") newLine++;
  });
  return hunks;
}
