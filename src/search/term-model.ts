/**
 * The learned vocabulary model: for a stemmed request term, the tool terms it was learned to stand
 * for and how strongly (a word-translation table fitted on request → tool pairs by
 * `bench/search-learn.ts`). It maps words to words, never to tools, so it applies as well to tools it
 * never saw requests for. The shipped table is in `learned-terms.ts`.
 */
import type { WeightedTerm } from "./index.ts";
import { LEARNED_TERMS } from "./learned-terms.ts";

export class TermModel {
  private table: Map<string, readonly WeightedTerm[]> | undefined;

  /** `data`: one line per request term: the term, then `tool-term:probability` pairs. */
  constructor(private readonly data: string) {}

  /** Tool terms learned for a stemmed request term (not the term itself), strongest first. */
  termsFor(term: string): readonly WeightedTerm[] {
    this.table ??= parseTable(this.data);
    return this.table.get(term) ?? [];
  }

  get size(): number {
    this.table ??= parseTable(this.data);
    return this.table.size;
  }
}

function parseTable(data: string): Map<string, readonly WeightedTerm[]> {
  const table = new Map<string, readonly WeightedTerm[]>();
  for (const line of data.split("\n")) {
    const [from, ...pairs] = line.split(" ");
    if (!from || pairs.length === 0) continue;
    table.set(
      from,
      pairs.map((pair) => {
        const at = pair.lastIndexOf(":");
        return { term: pair.slice(0, at), weight: Number(pair.slice(at + 1)) };
      }),
    );
  }
  return table;
}

/** The table shipped with toolrt. */
export const SHIPPED_TERM_MODEL = new TermModel(LEARNED_TERMS);

/** A model that knows no words, for measuring search without one. */
export const EMPTY_TERM_MODEL = new TermModel("");
