/**
 * The inverted index behind ToolSearch: BM25F over the fields of each tool document. Each field
 * has its own weight and length normalisation, combined into one pseudo term frequency per
 * (term, tool) before saturation, so a word in the name counts more than the same word deep in
 * an argument description, and repeating it across fields does not add up without bound.
 */
import type { SearchDocument } from "./document.ts";
import { analyze } from "./tokenize.ts";

type Field = Exclude<keyof SearchDocument, "name">;

interface FieldSpec {
  weight: number;
  /** Length normalisation: 0 ignores field length, 1 divides fully by it relative to the average. */
  b: number;
}

const FIELDS: Record<Field, FieldSpec> = {
  toolName: { weight: 3.0, b: 0.3 },
  server: { weight: 1.5, b: 0 },
  hint: { weight: 2.5, b: 0.3 },
  description: { weight: 1.0, b: 0.75 },
  argNames: { weight: 0.6, b: 0.5 },
  argText: { weight: 0.25, b: 0.75 },
};

const FIELD_NAMES = Object.keys(FIELDS) as Field[];

/** BM25 saturation: how fast more occurrences stop mattering. */
const K1 = 1.2;

interface Postings {
  docs: number[];
  /** Field-weighted, length-normalised term frequency per doc, same order as `docs`. */
  tfs: number[];
  idf: number;
}

/** One alternative spelling of a query word and how much a match on it counts. */
export interface WeightedTerm {
  term: string;
  weight: number;
}

/**
 * A word of the query, the typed term first: a tool scores the best of its alternatives, never
 * their sum.
 */
export type QueryGroup = readonly WeightedTerm[];

export interface ScoredDoc {
  doc: number;
  score: number;
}

export class SearchIndex {
  readonly names: readonly string[];
  /** Surface word → stemmed term, for typo correction against words the tools really use. */
  readonly surfaceWords: ReadonlyMap<string, string>;
  private readonly postings: Map<string, Postings>;
  private readonly groupScores: Float64Array;
  private readonly totals: Float64Array;
  private readonly matched: Uint16Array;
  /** Scratch lists of the documents a query (and one of its groups) has touched. */
  private readonly touched: Int32Array;
  private readonly groupTouched: Int32Array;

  constructor(names: string[], postings: Map<string, Postings>, surfaceWords: Map<string, string>) {
    this.names = names;
    this.postings = postings;
    this.surfaceWords = surfaceWords;
    this.groupScores = new Float64Array(names.length);
    this.totals = new Float64Array(names.length);
    this.matched = new Uint16Array(names.length);
    this.touched = new Int32Array(names.length);
    this.groupTouched = new Int32Array(names.length);
  }

  static fromData(data: SerializedIndex): SearchIndex {
    const postings = new Map<string, Postings>();
    for (const [term, idf, docs, tfs] of data.postings) postings.set(term, { docs, tfs, idf });
    return new SearchIndex(data.names, postings, new Map(data.surfaceWords));
  }

  toData(): SerializedIndex {
    return {
      names: [...this.names],
      postings: [...this.postings].map(([term, p]) => [term, p.idf, p.docs, p.tfs]),
      surfaceWords: [...this.surfaceWords],
    };
  }

  hasTerm(term: string): boolean {
    return this.postings.has(term);
  }

  /**
   * The best `limit` documents for the query groups, best first; ties keep index order.
   * A tool matching only some of the query's words is scaled down by the share it misses.
   */
  /** `allowed`, when given, has a non-zero entry for each document that may be returned. */
  search(groups: readonly QueryGroup[], limit: number, allowed?: Uint8Array): ScoredDoc[] {
    const { groupScores, totals, matched, touched, groupTouched } = this;
    let touchedCount = 0;
    for (const group of groups) {
      let groupCount = 0;
      // A stand-in word never tells tools apart better than the word typed: cap its rarity.
      const typedIdf = this.postings.get(group[0]?.term ?? "")?.idf ?? Infinity;
      for (const { term, weight } of group) {
        const postings = this.postings.get(term);
        if (!postings) continue;
        const { docs, tfs } = postings;
        const scale = weight * Math.min(postings.idf, typedIdf) * (K1 + 1);
        for (let i = 0; i < docs.length; i++) {
          const doc = docs[i]!;
          if (allowed && allowed[doc] === 0) continue;
          const tf = tfs[i]!;
          const score = scale * tf / (tf + K1);
          if (groupScores[doc] === 0) groupTouched[groupCount++] = doc;
          if (score > groupScores[doc]!) groupScores[doc] = score;
        }
      }
      for (let i = 0; i < groupCount; i++) {
        const doc = groupTouched[i]!;
        if (matched[doc] === 0) touched[touchedCount++] = doc;
        totals[doc]! += groupScores[doc]!;
        matched[doc]! += 1;
        groupScores[doc] = 0;
      }
    }
    const best = topK(touched.subarray(0, touchedCount), limit, (doc) => {
      const coverage = matched[doc]! / groups.length;
      return totals[doc]! * (0.5 + 0.5 * coverage * coverage);
    });
    for (let i = 0; i < touchedCount; i++) {
      totals[touched[i]!] = 0;
      matched[touched[i]!] = 0;
    }
    return best;
  }
}

/** The index as plain data, for the on-disk cache. */
export interface SerializedIndex {
  names: string[];
  /** Per term: the term, its idf, the documents holding it and its frequency in each. */
  postings: [string, number, number[], number[]][];
  surfaceWords: [string, string][];
}

/** The `limit` highest scores (ties: lower doc first), by insertion into a short sorted list. */
function topK(docs: Int32Array, limit: number, scoreOf: (doc: number) => number): ScoredDoc[] {
  const best: ScoredDoc[] = [];
  for (const doc of docs) {
    const score = scoreOf(doc);
    if (score <= 0) continue;
    if (best.length === limit && !beats(score, doc, best[limit - 1]!)) continue;
    let at = best.length;
    while (at > 0 && beats(score, doc, best[at - 1]!)) at--;
    best.splice(at, 0, { doc, score });
    if (best.length > limit) best.pop();
  }
  return best;
}

function beats(score: number, doc: number, other: ScoredDoc): boolean {
  return score > other.score || (score === other.score && doc < other.doc);
}

/** Builds the index in two passes: field lengths first (for their averages), then postings. */
export function buildSearchIndex(documents: readonly SearchDocument[]): SearchIndex {
  const surfaceWords = new Map<string, string>();
  const analyzed = documents.map((doc) => {
    const fields = {} as Record<Field, string[]>;
    for (const field of FIELD_NAMES) fields[field] = analyze(doc[field], surfaceWords);
    return fields;
  });
  const averageLength = {} as Record<Field, number>;
  for (const field of FIELD_NAMES) {
    const total = analyzed.reduce((sum, fields) => sum + fields[field].length, 0);
    averageLength[field] = Math.max(1, total / Math.max(1, analyzed.length));
  }
  const postings = new Map<string, Postings>();
  analyzed.forEach((fields, doc) => {
    const tfs = new Map<string, number>();
    for (const field of FIELD_NAMES) {
      const terms = fields[field];
      if (terms.length === 0) continue;
      const { weight, b } = FIELDS[field];
      const share = weight / (1 - b + b * terms.length / averageLength[field]);
      for (const term of terms) tfs.set(term, (tfs.get(term) ?? 0) + share);
    }
    for (const [term, tf] of tfs) {
      let list = postings.get(term);
      if (!list) postings.set(term, list = { docs: [], tfs: [], idf: 0 });
      list.docs.push(doc);
      list.tfs.push(tf);
    }
  });
  const n = documents.length;
  for (const list of postings.values()) {
    const df = list.docs.length;
    list.idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }
  return new SearchIndex(documents.map((d) => d.name), postings, surfaceWords);
}
