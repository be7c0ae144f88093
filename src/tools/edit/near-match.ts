/**
 * Why an `old_string` was not found, and where the file holds something close: the same text with
 * other whitespace or quote characters, else the lines most like its first line.
 */
import { splitLines } from "../../render/diff.ts";

export interface Candidate {
  /** 1-based line of the candidate's first line. */
  line: number;
  text: string;
}

export interface NearMatch {
  reason: string;
  candidates: Candidate[];
}

const MAX_CANDIDATES = 3;
const MIN_SIMILARITY = 0.5;
/** Past this many line comparisons only single lines are compared. */
const MAX_WINDOW_WORK = 2_000_000;

export function explainMissingString(fileText: string, oldString: string): NearMatch {
  const wanted = trimBlankLines(splitLines(oldString));
  const fileLines = fileText.split("\n");
  if (wanted.length > 0 && wanted.every((line) => /^\s*\d+\t/.test(line))) {
    return {
      reason: "old_string starts its lines with line numbers and tabs copied from Read output; " +
        "they are not part of the file. Remove them.",
      candidates: [],
    };
  }
  const loose = looseWindows(fileLines, wanted);
  if (loose.length > 0) {
    return {
      reason: "old_string was not found exactly, but the file holds the same text with different " +
        "whitespace, indentation or quote characters. Copy it exactly as below.",
      candidates: loose,
    };
  }
  const first = wanted.find((line) => line.trim() !== "") ?? "";
  const similar = fileLines
    .map((text, i) => ({ line: i + 1, text, score: similarity(normalize(text), normalize(first)) }))
    .filter((c) => c.score >= MIN_SIMILARITY)
    .sort((a, b) => b.score - a.score || a.line - b.line)
    .slice(0, MAX_CANDIDATES)
    .map(({ line, text }) => ({ line, text }));
  return similar.length > 0
    ? { reason: "old_string was not found. The lines most like its first line are:", candidates: similar }
    : {
      reason: "old_string was not found, and no line resembles its first line. Read the file again.",
      candidates: [],
    };
}

/** Where the file holds `wanted` line for line, up to whitespace and quote style. */
function looseWindows(fileLines: string[], wanted: string[]): Candidate[] {
  const size = wanted.length;
  if (size === 0 || fileLines.length * size > MAX_WINDOW_WORK) return [];
  const target = normalize(wanted.join("\n"));
  const found: Candidate[] = [];
  for (let i = 0; i + size <= fileLines.length && found.length < MAX_CANDIDATES; i++) {
    if (normalize(fileLines[i]!) !== normalize(wanted[0]!)) continue;
    const window = fileLines.slice(i, i + size).join("\n");
    if (normalize(window) === target) found.push({ line: i + 1, text: window });
  }
  return found;
}

function normalize(text: string): string {
  return text
    .replace(/[\u2018\u2019\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u2033]/g, '"')
    .replace(/\s+/g, " ")
    .trim();
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === "") start++;
  while (end > start && lines[end - 1]!.trim() === "") end--;
  return lines.slice(start, end);
}

/** Dice coefficient over character bigrams: 1 for equal strings, 0 for nothing in common. */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const counts = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const pair = a.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const pair = b.slice(i, i + 2);
    const left = counts.get(pair) ?? 0;
    if (left > 0) {
      shared++;
      counts.set(pair, left - 1);
    }
  }
  return (2 * shared) / (a.length + b.length - 2);
}
