/** "Did you mean …?" for a missing path: the names in its directory that look like it. */
import { readdir } from "node:fs/promises";
import { basename, dirname, extname } from "node:path";
import { closestNames } from "../../tool/closest-names.ts";

const MAX_SUGGESTIONS = 3;

export async function similarNames(path: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return [];
  }
  // The same name with another extension is as close as it gets.
  const wantedStem = stem(basename(path).toLowerCase());
  return closestNames(
    basename(path),
    names,
    MAX_SUGGESTIONS,
    (name) => stem(name.toLowerCase()) === wantedStem,
  );
}

function stem(name: string): string {
  return name.slice(0, name.length - extname(name).length);
}
