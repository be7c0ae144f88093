import { describe, expect, test } from "bun:test";
import { analyze } from "../../src/search/tokenize.ts";
import { TermBuffer, WordTable } from "../../src/search/word-table.ts";

function scanned(table: WordTable, text: string): string[] {
  const out = new TermBuffer();
  table.scan(text, out);
  return [...out.ids.subarray(0, out.length)].map((id) => table.termNames[id]!);
}

describe("WordTable", () => {
  const texts = [
    "mcp__github__create_pull_request",
    "linear_getActiveCycle listRepositoriesByNamespace r2_put_object S3Tables",
    "Creates the pull requests for a PR in k8s",
    "Überprüfe die Straße, emoji 🙂 between ÜBER",
    "CREATE create Create",
    "",
  ];
  test("gives the same terms as analyze, text after text", () => {
    const table = new WordTable();
    for (const text of texts) expect(scanned(table, text), text).toEqual(analyze(text));
  });

  test("keeps one entry per distinct lower-case word, through table growth", () => {
    const table = new WordTable();
    const words = Array.from({ length: 20_000 }, (_, i) => `word${i.toString(36)}x`);
    scanned(table, words.join(" "));
    expect(table.words.length).toBe(20_000);
    const shouted = words.slice(0, 3).join(" ").toUpperCase();
    expect(scanned(table, shouted)).toEqual(analyze(shouted));
  });
});
