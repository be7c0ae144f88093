/** Turns hits into Grep's output entries, the same for either engine. */
import type { LineHit } from "./search.ts";

/** Longer matched or context lines are cut to this many characters. */
const MAX_LINE_CHARS = 500;

export interface ContentOptions {
  lineNumbers: boolean;
  onlyMatching: boolean;
  /** Context was asked for: groups of lines are separated by `--`, as grep and rg do. */
  withContext: boolean;
}

/** `path:12:text` for matches, `path-11-text` for context lines (ripgrep's layout). */
export function contentEntries(files: [string, LineHit[]][], opts: ContentOptions): string[] {
  const out: string[] = [];
  let previous: { file: string; line: number } | undefined;
  for (const [file, hits] of files) {
    for (const hit of hits) {
      if (opts.onlyMatching) {
        for (const part of hit.parts) out.push(entry(file, hit.line, part, ":", opts));
        continue;
      }
      const adjacent = previous?.file === file && previous.line === hit.line - 1;
      if (opts.withContext && previous && !adjacent) out.push("--");
      out.push(entry(file, hit.line, hit.text, hit.match ? ":" : "-", opts));
      previous = { file, line: hit.line };
    }
  }
  return out;
}

function entry(file: string, line: number, text: string, separator: string, opts: ContentOptions): string {
  const shown = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}… [line cut]` : text;
  return opts.lineNumbers ? `${file}${separator}${line}${separator}${shown}` : `${file}${separator}${shown}`;
}

export function countEntries(files: [string, LineHit[]][]): string[] {
  return files.map(([file, hits]) => `${file}:${matchingLines(hits)}`);
}

export function matchingLines(hits: LineHit[]): number {
  return hits.reduce((sum, hit) => sum + (hit.match ? 1 : 0), 0);
}
