import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCatalog } from "../../src/search/catalog.ts";
import { CONCEPTS, LOANS } from "../../src/search/concepts.ts";
import { analyze, stem } from "../../src/search/tokenize.ts";
import { ToolIndex } from "../../src/search/tool-index.ts";
import { handWrittenTools, testLayerCases } from "./helpers.ts";

/** The public MCP catalog the benchmarks read, shipped in fixtures/search. */
const PUBLIC_CATALOG = join(import.meta.dir, "../../fixtures/search/mcp-catalog.json");

describe("concept map data", () => {
  test("no concept repeats a word", () => {
    for (const concept of Object.values(CONCEPTS).flat()) {
      const words = concept.split(" ");
      expect(new Set(words).size, concept).toBe(words.length);
    }
  });

  test("every concept and loan reaches a word of the public catalog's tools", () => {
    const catalog = parseCatalog(readFileSync(PUBLIC_CATALOG, "utf8"));
    const terms = new Set<string>();
    for (const server of catalog.servers) {
      for (const tool of server.tools) {
        for (const term of analyze(`${server.name} ${tool.name} ${tool.description ?? ""}`)) terms.add(term);
      }
    }
    const reaches = (words: string) => words.split(" ").some((word) => terms.has(stem(word)));
    for (const concept of Object.values(CONCEPTS).flat()) expect(reaches(concept), concept).toBe(true);
    for (const [word, meanings] of Object.entries(LOANS)) expect(reaches(meanings), word).toBe(true);
  });
});

describe("concepts beyond verbs", () => {
  const index = ToolIndex.build(handWrittenTools({
    payments: [["update_dispute", "Submits evidence for a dispute"], ["list_charges", "Lists charges"]],
    maps: [["maps_elevation", "Elevation data for locations"], ["maps_geocode", "Address to location"]],
    docdb: [["get_collection", "Gets a collection"], ["collection_storage_size", "Bytes a collection takes"]],
    travel: [["directions", "Directions between two points"], ["list_cars", "List the cars"]],
    places: [["place_details", "Details of a place"], ["list_restaurant_menus", "Menus"]],
    merges: [["get_merge_conflicts", "Conflicts of a merge"], ["get_merge", "Gets a merge"]],
  }));
  testLayerCases(index, "synonyms", [
    ["handle a chargeback", "mcp__payments__update_dispute"],
    ["how high is this location", "mcp__maps__maps_elevation"],
    ["how big is the collection", "mcp__docdb__collection_storage_size"],
    ["how long is the drive to Boston", "mcp__travel__directions"],
    ["opening hours of this restaurant", "mcp__places__place_details"],
    ["does the merge clash", "mcp__merges__get_merge_conflicts"],
  ]);
});
