/**
 * The benign command corpus (real commands from tldr-pages and typical agent use; origin and license
 * in fixtures/data/benign-commands.README.md), kept in the repository so a clean clone tests with it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const BENIGN_CORPUS = join(import.meta.dir, "../../fixtures/data/benign-commands.txt");

export function benignCommands(): string[] {
  return readFileSync(BENIGN_CORPUS, "utf8").split("\n").filter((l) => l !== "");
}
