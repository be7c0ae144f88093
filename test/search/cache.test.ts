import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cachedIndex, cachedToolIndex, contentKey } from "../../src/search/cache.ts";
import { ToolIndex } from "../../src/search/tool-index.ts";
import { smallCatalogTools } from "./helpers.ts";

describe("search index cache", () => {
  const tools = smallCatalogTools();

  test("the first call builds and stores, the second loads without building", () => {
    const stateDir = mkdtempSync(join(tmpdir(), "toolrt-search-"));
    let builds = 0;
    const build = () => (builds++, ToolIndex.build(tools));
    const first = cachedIndex(stateDir, "k1", build);
    const second = cachedIndex(stateDir, "k1", build);
    expect(builds).toBe(1);
    expect(readdirSync(join(stateDir, "search-index"))).toEqual(["k1.idx"]);
    expect(second.search("open a PR", 5)).toEqual(first.search("open a PR", 5));
  });

  test("a corrupt cache file is rebuilt, not trusted", () => {
    const stateDir = mkdtempSync(join(tmpdir(), "toolrt-search-"));
    cachedIndex(stateDir, "k2", () => ToolIndex.build(tools));
    writeFileSync(join(stateDir, "search-index", "k2.idx"), "{not an index");
    let builds = 0;
    cachedIndex(stateDir, "k2", () => (builds++, ToolIndex.build(tools)));
    expect(builds).toBe(1);
  });

  test("the key follows the content", () => {
    expect(contentKey("a")).toBe(contentKey("a"));
    expect(contentKey("a")).not.toBe(contentKey("b"));
    const stateDir = mkdtempSync(join(tmpdir(), "toolrt-search-"));
    cachedToolIndex(stateDir, tools);
    cachedToolIndex(stateDir, tools.slice(1));
    expect(readdirSync(join(stateDir, "search-index"))).toHaveLength(2);
  });
});
