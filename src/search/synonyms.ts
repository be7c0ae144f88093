/**
 * The concept map (`concepts.ts`) as a table from a stemmed query term to the terms that may stand
 * for it, with their weights.
 */
import type { WeightedTerm } from "./index.ts";
import { CONCEPTS, LOANS } from "./concepts.ts";
import { stem } from "./tokenize.ts";

/** How much a synonym counts against the word the model typed. */
const GROUP_WEIGHT = 0.7;
const DIRECTED_WEIGHT = 0.6;

function buildSynonymTable(): Map<string, WeightedTerm[]> {
  const table = new Map<string, WeightedTerm[]>();
  const add = (from: string, to: string, weight: number) => {
    const key = stem(from);
    const term = stem(to);
    if (key === term) return;
    const list = table.get(key) ?? [];
    const known = list.find((e) => e.term === term);
    if (known) known.weight = Math.max(known.weight, weight);
    else list.push({ term, weight });
    table.set(key, list);
  };
  for (const group of Object.values(CONCEPTS).flat()) {
    const words = group.split(" ");
    for (const a of words) for (const b of words) add(a, b, GROUP_WEIGHT);
  }
  for (const [from, targets] of Object.entries(LOANS)) {
    for (const to of targets.split(" ")) add(from, to, DIRECTED_WEIGHT);
  }
  return table;
}

const SYNONYMS = buildSynonymTable();

/** Stemmed synonyms of a stemmed query term, with their weights. */
export function synonymsOf(term: string): readonly WeightedTerm[] {
  return SYNONYMS.get(term) ?? [];
}
