/** What both search engines (ripgrep and the built-in one) take and give, so one formatter serves. */

export interface SearchRequest {
  pattern: string;
  /** Absolute file or directory. */
  root: string;
  caseInsensitive: boolean;
  multiline: boolean;
  /** A glob on file paths; a leading `!` excludes. Without `/` it matches the file name at any depth. */
  glob?: string;
  type?: string;
  before: number;
  after: number;
  signal?: AbortSignal;
}

export interface LineHit {
  /** 1-based. */
  line: number;
  text: string;
  /** False for a context line. */
  match: boolean;
  /** The matched texts that start on this line (for `-o`). */
  parts: string[];
}

export interface SearchResult {
  /** Absolute path → its hits in line order. Files without matches are absent. */
  files: Map<string, LineHit[]>;
  /** The engine stopped at MAX_MATCH_LINES. */
  capped: boolean;
}

/** A search stops collecting past this many matching lines, whichever engine runs it. */
export const MAX_MATCH_LINES = 50_000;

export type SearchEngine = (request: SearchRequest) => Promise<SearchResult>;

/** Adds the hit for `line`, merging with a hit already there (a context line may become a match). */
export function addHit(
  hits: Map<number, LineHit>,
  line: number,
  text: string,
  match: boolean,
  part?: string,
): void {
  const existing = hits.get(line);
  if (!existing) {
    hits.set(line, { line, text, match, parts: part ? [part] : [] });
    return;
  }
  existing.match ||= match;
  if (part) existing.parts.push(part);
}

export function sortedHits(hits: Map<number, LineHit>): LineHit[] {
  return [...hits.values()].sort((a, b) => a.line - b.line);
}
