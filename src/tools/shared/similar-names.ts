/** "Did you mean …?" for a missing path: the names in its directory that look like it. */
import { readdir } from "node:fs/promises";
import { basename, dirname, extname } from "node:path";

const MAX_SUGGESTIONS = 3;

export async function similarNames(path: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return [];
  }
  const wanted = basename(path).toLowerCase();
  const wantedStem = stem(wanted);
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  return names
    .map((name) => {
      const lower = name.toLowerCase();
      const sameStem = stem(lower) === wantedStem;
      return { name, score: sameStem ? 0 : editDistance(lower, wanted) };
    })
    .filter((c) => c.score <= limit)
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, MAX_SUGGESTIONS)
    .map((c) => c.name);
}

function stem(name: string): string {
  return name.slice(0, name.length - extname(name).length);
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
