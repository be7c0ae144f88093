/** The small real-definition catalog the search tests run on, and tools written by hand. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { catalogTools, parseCatalog } from "../../src/search/catalog.ts";
import { ALL_LAYERS, type SearchLayers } from "../../src/search/expand.ts";
import type { ToolIndex } from "../../src/search/tool-index.ts";
import type { AnyTool } from "../../src/tool/types.ts";

export const SMALL_CATALOG = join(import.meta.dir, "../../fixtures/search/catalog-small.json");

export function smallCatalogTools(): AnyTool[] {
  return catalogTools(parseCatalog(readFileSync(SMALL_CATALOG, "utf8")));
}

/** Tools written in the test: server name → its tools' names and descriptions. */
export function handWrittenTools(servers: Record<string, [name: string, description: string][]>): AnyTool[] {
  return catalogTools({
    servers: Object.entries(servers).map(([name, tools]) => ({
      name,
      tools: tools.map(([tool, description]) => ({
        name: tool,
        description,
        inputSchema: { type: "object" },
      })),
    })),
  });
}

/**
 * Each case finds its tool first with the layer on, and not with it off. Off, the learned model is
 * off too: it has learned some of what the hand-written layers know, and would hide what they add.
 */
export function testLayerCases(index: ToolIndex, layer: keyof SearchLayers, cases: [string, string][]): void {
  const top = (query: string, on: boolean) =>
    index.search(query, 1, on ? ALL_LAYERS : { ...ALL_LAYERS, [layer]: false, learned: false }).hits[0]?.name;
  for (const [query, expected] of cases) {
    test(`${layer}: ${query}`, () => {
      expect(top(query, true)).toBe(expected);
      expect(top(query, false)).not.toBe(expected);
    });
  }
}
