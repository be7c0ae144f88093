/**
 * The WordNet layer: words a model may type mapped to words tools use, generated at build time
 * into `data/wordnet-synonyms.txt` (see `data/generate-wordnet.ts`) and embedded in the binary.
 * Parsed on first use only, so a CLI call that never searches pays nothing for it.
 */
import table from "./data/wordnet-synonyms.txt" with { type: "text" };

let synonyms: Map<string, string[]> | undefined;

function load(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const line of table.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const [key, ...targets] = line.split(" ");
    map.set(key!, targets);
  }
  return map;
}

/** Stemmed catalog words that a stemmed query term may stand for. */
export function wordnetSynonymsOf(term: string): readonly string[] {
  synonyms ??= load();
  return synonyms.get(term) ?? [];
}
