import { describe, expect, test } from "bun:test";
import { ALL_LAYERS, type SearchLayers } from "../../src/search/expand.ts";
import { serverWords } from "../../src/search/servers.ts";
import { ToolIndex } from "../../src/search/tool-index.ts";
import { smallCatalogTools } from "./helpers.ts";

const index = ToolIndex.build(smallCatalogTools());
const top = (query: string, layers: Partial<SearchLayers> = {}) =>
  index.search(query, 1, { ...ALL_LAYERS, ...layers }).hits[0]?.name;

/** Each case finds its tool first with the layer on, and not with it off. */
const cases: [keyof SearchLayers, string, string][] = [
  // A question lists or reads; it does not create ("open" is the issues' state here).
  ["intent", "show me the open issues", "mcp__github__list_issues"],
  ["intent", "what's in the file", "mcp__filesystem__read_text_file"],
  // Asking whether a PR is merged must not merge it.
  ["intent", "is the PR merged", "mcp__github__list_pull_requests"],
  // The name holding the request's objects, and little else, beats a wordier description.
  ["nameMatch", "make a jira issue", "mcp__atlassian__jira_create_issue"],
  // The server the request names wins over another server's closer words.
  ["servers", "grafana logs for the pod", "mcp__grafana__query_loki_logs"],
];

describe("re-ranking layers", () => {
  for (const [layer, query, expected] of cases) {
    test(`${layer}: ${query}`, () => {
      expect(top(query)).toBe(expected);
      expect(top(query, { [layer]: false })).not.toBe(expected);
    });
  }
});

describe("serverWords", () => {
  test("own name words that mostly occur in the server's tools, and product aliases", () => {
    const words = serverWords(index.index);
    const servers = index.index.facts.servers;
    const named = (word: string) => (words.get(word) ?? []).map((id) => servers[id]);
    expect(named("grafana")).toEqual(["grafana"]);
    expect(named("jira")).toEqual(["atlassian"]);
    expect(named("kubectl")).toEqual(["kubernetes"]);
    expect(named("search")).toEqual([]);
  });
});
