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
  data.split("\n").forEach((line, i) => {
    if (line === "") return;
    const [from, ...pairs] = line.split(" ");
    table.set(
      from!,
      pairs.map((pair) => {
        const at = pair.lastIndexOf(":");
        const weight = Number(pair.slice(at + 1));
        if (at <= 0 || !(weight > 0 && weight <= 1)) {
          throw new Error(
            `learned terms, line ${i + 1}: "${pair}" is not term:probability (0 < probability <= 1); ` +
              "regenerate the table with bun bench/search-learn.ts --write",
          );
        }
        return { term: pair.slice(0, at), weight };
      }),
    );
  });
  return table;
}

/** The table shipped with toolrt. */
export const SHIPPED_TERM_MODEL = new TermModel(LEARNED_TERMS);

/** A model that knows no words, for measuring search without one. */
export const EMPTY_TERM_MODEL = new TermModel("");
