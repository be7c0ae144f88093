/**
 * The search engine used when `rg` is not on PATH: the same walk rules as our ripgrep invocation
 * (hidden files searched, `.git` skipped, `.gitignore` honoured, symlinks and binary files skipped)
 * and the same hits, with JavaScript regular expressions.
 */
import { readFile, stat } from "node:fs/promises";
import { basename, relative, sep } from "node:path";
import { ToolError } from "../shared/errors.ts";
import { walkFiles } from "../shared/walk.ts";
import { FILE_TYPES } from "./file-types.ts";
import {
  addHit,
  type LineHit,
  MAX_MATCH_LINES,
  type SearchRequest,
  type SearchResult,
  sortedHits,
} from "./search.ts";

export async function searchBuiltin(request: SearchRequest): Promise<SearchResult> {
  const regex = compile(request);
  const files = new Map<string, LineHit[]>();
  let matchLines = 0;
  for await (const path of searchedFiles(request)) {
    const bytes = await readFile(path).catch(() => undefined);
    if (!bytes || bytes.includes(0)) continue; // unreadable or binary
    const hits = searchText(new TextDecoder().decode(bytes), regex, request);
    if (hits.length === 0) continue;
    files.set(path, hits);
    matchLines += hits.filter((h) => h.match).length;
    if (matchLines >= MAX_MATCH_LINES) return { files, capped: true };
  }
  return { files, capped: false };
}

function compile(request: SearchRequest): RegExp {
  // Line by line, `^` and `$` are the line's ends. Without the `m` flag `$` also ignores a `\r`
  // before the newline, as rg does without --crlf.
  const flags = `g${request.caseInsensitive ? "i" : ""}${request.multiline ? "ms" : ""}`;
  try {
    return new RegExp(request.pattern, flags);
  } catch (error) {
    throw new ToolError(
      `Invalid regular expression ${JSON.stringify(request.pattern)}: ${(error as Error).message}`,
    );
  }
}

/** The files a search looks into, whatever they hold: the walk, then the `glob` and `type` filters. */
export async function* searchedFiles(request: SearchRequest): AsyncGenerator<string> {
  const accepts = fileFilter(request);
  for await (const path of candidateFiles(request)) if (accepts(path)) yield path;
}

async function* candidateFiles(request: SearchRequest): AsyncGenerator<string> {
  const glob = globFilter(request);
  // A file named as the root is searched even when ignored, as rg does.
  if ((await stat(request.root)).isFile()) {
    yield request.root;
    return;
  }
  yield* walkFiles(request.root, {
    skipDirNames: new Set([".git"]),
    gitignore: true,
    symlinkedFiles: false,
    // rg lets a file matching a positive --glob through even when a .gitignore names it.
    keepIgnoredFile: glob && !glob.negated ? glob.matches : undefined,
    signal: request.signal,
  });
}

function fileFilter(request: SearchRequest): (path: string) => boolean {
  const typeGlob = request.type === undefined ? undefined : FILE_TYPES[request.type];
  if (request.type !== undefined && !typeGlob) throw unknownType(request.type);
  const byType = typeGlob ? new Bun.Glob(typeGlob) : undefined;
  const glob = globFilter(request);
  return (path) =>
    (!byType || byType.match(basename(path))) && (!glob || glob.matches(path) !== glob.negated);
}

/** The `glob` as rg reads it: on the file name when it has no `/`, else on the path from the root. */
function globFilter(
  request: SearchRequest,
): { matches: (path: string) => boolean; negated: boolean } | undefined {
  if (request.glob === undefined) return undefined;
  const negated = request.glob.startsWith("!");
  const text = negated ? request.glob.slice(1) : request.glob;
  const glob = new Bun.Glob(text);
  const onName = !text.includes("/");
  return {
    negated,
    matches: (path) =>
      glob.match(onName ? basename(path) : relative(request.root, path).split(sep).join("/")),
  };
}

export function unknownType(type: string): ToolError {
  return new ToolError(`Unknown file type "${type}". Known types: ${Object.keys(FILE_TYPES).join(", ")}.`);
}

/** Hits in one file's text: matching lines, their context lines, and the matched parts. */
function searchText(text: string, regex: RegExp, request: SearchRequest): LineHit[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const shown = (i: number) => lines[i]!.replace(/\r$/, "");
  const hits = new Map<number, LineHit>();
  const matched = request.multiline ? multilineMatches(text, regex) : lineMatches(lines, regex);
  // An empty match at the very end of a text that ends with a newline lies on no line.
  const onLines = matched.filter((m) => m.first < lines.length).map((m) => ({
    ...m,
    last: Math.min(m.last, lines.length - 1),
  }));
  for (const { first, last, part } of onLines) {
    for (let i = first; i <= last; i++) addHit(hits, i + 1, shown(i), true, i === first ? part : undefined);
  }
  for (const { first, last } of onLines) {
    for (
      let i = Math.max(0, first - request.before);
      i <= Math.min(lines.length - 1, last + request.after);
      i++
    ) {
      addHit(hits, i + 1, shown(i), false);
    }
  }
  return sortedHits(hits);
}

interface Match {
  /** 0-based first and last line of the match. */
  first: number;
  last: number;
  /** The matched text; undefined for an empty match. */
  part?: string;
}

function lineMatches(lines: string[], regex: RegExp): Match[] {
  const found: Match[] = [];
  lines.forEach((line, i) => {
    for (const m of line.matchAll(regex)) found.push({ first: i, last: i, part: m[0] || undefined });
  });
  return found;
}

function multilineMatches(text: string, regex: RegExp): Match[] {
  const lineStarts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lineStarts.push(at + 1);
  const lineOf = (offset: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  return [...text.matchAll(regex)].map((m) => ({
    first: lineOf(m.index),
    last: lineOf(m.index + Math.max(m[0].length - 1, 0)),
    part: m[0] || undefined,
  }));
}
