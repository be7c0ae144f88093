import { describe, expect, test } from "bun:test";
import { ALL_LAYERS } from "../../src/search/expand.ts";
import { synonymsOf } from "../../src/search/synonyms.ts";
import { stem } from "../../src/search/tokenize.ts";
import { ToolIndex } from "../../src/search/tool-index.ts";
import { smallCatalogTools } from "./helpers.ts";

const meanings = (word: string) => synonymsOf(stem(word)).map((s) => s.term);

describe("concept map", () => {
  test("verbs of one action stand for each other", () => {
    expect(meanings("remove")).toContain(stem("delete"));
    expect(meanings("delete")).toContain(stem("remove"));
    expect(meanings("modify")).toContain(stem("update"));
  });

  test("directed loans go one way only", () => {
    expect(meanings("upload")).toContain(stem("put"));
    expect(meanings("put")).not.toContain(stem("upload"));
    expect(meanings("who")).toContain(stem("audit"));
    expect(meanings("cluster")).toContain(stem("kubernetes"));
  });

  test("plus, unstage, swap, type and disk mean what the tools call them", () => {
    expect(meanings("plus")).toContain(stem("sum"));
    expect(meanings("unstage")).toContain(stem("reset"));
    expect(meanings("swap")).toContain(stem("replace"));
    expect(meanings("type")).toContain(stem("fill"));
    expect(meanings("disk")).toContain(stem("storage"));
  });
});

describe("queries that share no word with the tool they want", () => {
  const index = ToolIndex.build(smallCatalogTools());
  // The intent layer reads "remove" as a delete too, and the learned model has learned it: both
  // off, to see the synonyms alone.
  const bare = { ...ALL_LAYERS, synonyms: false, intent: false, learned: false };
  const cases: [string, string][] = [
    ["remove file", "mcp__github__delete_file"],
    ["open a PR", "mcp__github__create_pull_request"],
  ];
  for (const [query, expected] of cases) {
    test(query, () => {
      expect(index.search(query, 1).hits[0]?.name).toBe(expected);
      expect(index.search(query, 1, bare).hits[0]?.name).not.toBe(expected);
    });
  }

  test("an error event is looked up among the error tracker's tools", () => {
    expect(index.search("look up an error event", 3).hits.map((h) => h.name)).toEqual(
      expect.arrayContaining(["mcp__sentry__search_events"]),
    );
  });
});
