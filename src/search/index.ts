/**
 * The inverted index behind ToolSearch: BM25F over the fields of each tool document. Each field
 * has its own weight and length normalisation, combined into one pseudo term frequency per
 * (term, tool) before saturation, so a word in the name counts more than the same word deep in
 * an argument description, and repeating it across fields does not add up without bound.
 */
import type { SearchDocument } from "./document.ts";
import { baseWords, isStopWord, stem } from "./tokenize.ts";
import { type ToolFacts, ToolFactsBuilder } from "./tool-facts.ts";
import { TermBuffer, WordTable } from "./word-table.ts";

type Field = Exclude<keyof SearchDocument, "name" | "inputs">;

interface FieldSpec {
  weight: number;
  /** Length normalisation: 0 ignores field length, 1 divides fully by it relative to the average. */
  b: number;
}

const FIELDS: Record<Field, FieldSpec> = {
  toolName: { weight: 3.0, b: 0.75 },
  server: { weight: 1.5, b: 0 },
  hint: { weight: 2.5, b: 0.3 },
  description: { weight: 1.0, b: 0.75 },
  argNames: { weight: 0.6, b: 0.5 },
  argText: { weight: 0.25, b: 0.75 },
};

const FIELD_NAMES = Object.keys(FIELDS) as Field[];

/** BM25 saturation: how fast more occurrences stop mattering. */
const K1 = 1.2;

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

/**
 * Postings of all terms in three flat arrays: term t's documents are `docs[starts[t]]` up to
 * `docs[starts[t + 1]]`, in document order, with their pseudo term frequencies in `tfs`.
 */
export interface Postings {
  terms: ReadonlyMap<string, number>;
  starts: Int32Array;
  docs: Int32Array;
  tfs: Float32Array;
  idf: Float64Array;
}

export class SearchIndex {
  readonly names: readonly string[];
  readonly postings: Postings;
  readonly facts: ToolFacts;
  /** Lower-case words of the tools' texts (what typo correction and joined words match against). */
  readonly words: readonly string[];
  private surfaceMap: Map<string, string> | undefined;
  private readonly groupScores: Float64Array;
  private readonly totals: Float64Array;
  private readonly matched: Uint16Array;
  /** Scratch lists of the documents a query (and one of its groups) has touched. */
  private readonly touched: Int32Array;
  private readonly groupTouched: Int32Array;

  constructor(names: readonly string[], postings: Postings, facts: ToolFacts, words: readonly string[]) {
    this.names = names;
    this.postings = postings;
    this.facts = facts;
    this.words = words;
    this.groupScores = new Float64Array(names.length);
    this.totals = new Float64Array(names.length);
    this.matched = new Uint16Array(names.length);
    this.touched = new Int32Array(names.length);
    this.groupTouched = new Int32Array(names.length);
  }

  /** Surface word → stemmed term, made on first need: a query may never ask for it. */
  get surfaceWords(): ReadonlyMap<string, string> {
    if (!this.surfaceMap) {
      this.surfaceMap = new Map();
      for (const word of this.words) {
        for (const part of baseWords(word)) {
          if (!isStopWord(part)) this.surfaceMap.set(part, stem(part));
        }
      }
    }
    return this.surfaceMap;
  }

  hasTerm(term: string): boolean {
    return this.postings.terms.has(term);
  }

  /**
   * The best `limit` documents for the query groups, best first; ties keep index order.
   * A tool matching only some of the query's words is scaled down by the share it misses.
   */
  /** `allowed`, when given, has a non-zero entry for each document that may be returned. */
  search(groups: readonly QueryGroup[], limit: number, allowed?: Uint8Array): ScoredDoc[] {
    const { groupScores, totals, matched, touched, groupTouched } = this;
    const { terms, starts, docs, tfs, idf } = this.postings;
    let touchedCount = 0;
    for (const group of groups) {
      let groupCount = 0;
      // A stand-in word never tells tools apart better than the word typed: cap its rarity.
      const typed = terms.get(group[0]?.term ?? "");
      const typedIdf = typed === undefined ? Infinity : idf[typed]!;
      for (const { term, weight } of group) {
        const id = terms.get(term);
        if (id === undefined) continue;
        const scale = weight * Math.min(idf[id]!, typedIdf) * (K1 + 1);
        for (let i = starts[id]!, end = starts[id + 1]!; i < end; i++) {
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

/**
 * Builds the index in two passes over the documents' term ids: field lengths and document
 * frequencies first (for their averages and the postings' offsets), then the postings.
 */
export function buildSearchIndex(documents: readonly SearchDocument[]): SearchIndex {
  const table = new WordTable();
  const ids = new TermBuffer();
  const fieldCount = FIELD_NAMES.length;
  /** Where each (document, field)'s term ids end in `ids`. */
  const ends = new Int32Array(documents.length * fieldCount);
  const facts = new ToolFactsBuilder(table.termNames);
  documents.forEach((doc, d) => {
    FIELD_NAMES.forEach((field, f) => {
      const start = ids.length;
      table.scan(doc[field], ids);
      ends[d * fieldCount + f] = ids.length;
      if (field === "toolName") facts.add(doc, ids.ids, start, ids.length);
    });
  });
  const termCount = table.termCount;
  const lengthSums = new Float64Array(fieldCount);
  const df = new Int32Array(termCount);
  const lastDoc = new Int32Array(termCount).fill(-1);
  for (let d = 0, at = 0; d < documents.length; d++) {
    for (let f = 0; f < fieldCount; f++) {
      const end = ends[d * fieldCount + f]!;
      lengthSums[f]! += end - at;
      for (; at < end; at++) {
        const term = ids.ids[at]!;
        if (lastDoc[term] !== d) {
          lastDoc[term] = d;
          df[term]!++;
        }
      }
    }
  }
  const shares = FIELD_NAMES.map((field, f) => {
    const { weight, b } = FIELDS[field];
    const average = Math.max(1, lengthSums[f]! / Math.max(1, documents.length));
    return (length: number) => weight / (1 - b + b * length / average);
  });
  const starts = new Int32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) starts[t + 1] = starts[t]! + df[t]!;
  const docs = new Int32Array(starts[termCount]!);
  const tfs = new Float32Array(starts[termCount]!);
  const filled = starts.slice(0, termCount);
  const tf = new Float64Array(termCount);
  const docTerms = new Int32Array(termCount);
  for (let d = 0, at = 0; d < documents.length; d++) {
    let docTermCount = 0;
    for (let f = 0; f < fieldCount; f++) {
      const end = ends[d * fieldCount + f]!;
      const share = shares[f]!(end - at);
      for (; at < end; at++) {
        const term = ids.ids[at]!;
        if (tf[term] === 0) docTerms[docTermCount++] = term;
        tf[term]! += share;
      }
    }
    for (let i = 0; i < docTermCount; i++) {
      const term = docTerms[i]!;
      docs[filled[term]!] = d;
      tfs[filled[term]!++] = tf[term]!;
      tf[term] = 0;
    }
  }
  const n = documents.length;
  const idf = Float64Array.from(df, (count) => Math.log(1 + (n - count + 0.5) / (count + 0.5)));
  return new SearchIndex(
    documents.map((d) => d.name),
    { terms: table.termIds, starts, docs, tfs, idf },
    facts.finish(),
    table.words,
  );
}
