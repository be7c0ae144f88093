import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { ALL_LAYERS } from "../../src/search/expand.ts";
import { decodeIndex, encodeIndex } from "../../src/search/index-file.ts";
import { ToolIndex } from "../../src/search/tool-index.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import { smallCatalogTools } from "./helpers.ts";

const index = ToolIndex.build(smallCatalogTools());
const top = (query: string, k = 1) => index.search(query, k).hits.map((hit) => hit.name);

describe("keyword and natural-language ranking on real definitions", () => {
  const cases: [string, string][] = [
    ["github create pull request", "mcp__github__create_pull_request"],
    ["open a PR on github", "mcp__github__create_pull_request"],
    ["merge a pull request", "mcp__github__merge_pull_request"],
    ["file a new bug on github", "mcp__github__issue_write"],
    ["remove a file from the github repo", "mcp__github__delete_file"],
    ["slack send message to channel", "mcp__slack__slack_post_message"],
    ["react with an emoji in slack", "mcp__slack__slack_add_reaction"],
    ["make a folder", "mcp__filesystem__create_directory"],
    ["rename a file", "mcp__filesystem__move_file"],
    ["k8s pod logs", "mcp__kubernetes__kubectl_logs"],
    ["jira create ticket", "mcp__atlassian__jira_create_issue"],
    ["move a jira issue to done", "mcp__atlassian__jira_transition_issue"],
    ["who is on call right now", "mcp__grafana__get_current_oncall_users"],
    ["root cause of a production error", "mcp__sentry__analyze_issue_with_seer"],
  ];
  for (const [query, expected] of cases) {
    test(query, () => expect(top(query, 1), query).toEqual([expected]));
  }

  test("screenshot queries find every browser server's screenshot tool first", () => {
    expect(top("screenshot the page", 2).sort()).toEqual([
      "mcp__playwright__browser_take_screenshot",
      "mcp__puppeteer__puppeteer_screenshot",
    ]);
  });

  test("typos are corrected against the tools' own words", () => {
    expect(top("slak post mesage")).toEqual(["mcp__slack__slack_post_message"]);
    expect(top("kuberntes logs")).toEqual(["mcp__kubernetes__kubectl_logs"]);
    expect(top("screnshot", 2)).toContain("mcp__puppeteer__puppeteer_screenshot");
  });

  test("each layer can be switched off: without synonyms a PR is not a pull request's creation", () => {
    const bare = { ...ALL_LAYERS, synonyms: false };
    expect(index.search("open a PR", 1, bare).hits[0]?.name).not.toBe("mcp__github__create_pull_request");
    expect(index.search("open a PR", 1).hits[0]?.name).toBe("mcp__github__create_pull_request");
  });

  test("scores are relative to the best hit and sorted", () => {
    const hits = index.search("create issue", 5).hits;
    expect(hits[0]!.score).toBe(1);
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    expect(hits.length).toBe(5);
  });
});

describe("+prefix", () => {
  test("keeps only names containing the word, then ranks", () => {
    expect(top("+slack send")).toEqual(["mcp__slack__slack_post_message"]);
    expect(top("+gitlab merge")).toEqual(["mcp__gitlab__merge_merge_request"]);
    for (const name of top("+kubectl x", 10)) expect(name).toContain("kubectl");
  });
  test("a prefix alone lists the tools carrying it", () => {
    expect(top("+puppeteer", 10).sort()).toEqual([
      "mcp__puppeteer__puppeteer_click",
      "mcp__puppeteer__puppeteer_navigate",
      "mcp__puppeteer__puppeteer_screenshot",
    ]);
  });
  test("several prefixes: names containing all of them; each unmatched one is named", () => {
    expect(top("+github +pull", 10).sort()).toEqual(top("+pull_request", 10).sort());
    for (const name of top("+github +pull", 10)) expect(name).toMatch(/github.*pull/);
    expect(index.search("+github +discord +zzz", 5).unmatchedRequired).toEqual(["discord", "zzz"]);
    expect(top("+slack_post +slack_post")).toEqual(["mcp__slack__slack_post_message"]);
  });
  test("a prefix no name contains yields nothing and says which", () => {
    expect(index.search("+discord send", 5)).toEqual({
      hits: [],
      missing: [],
      unmatchedRequired: ["discord"],
    });
  });
});

describe("select:", () => {
  test("exact names, in the order asked, all scored 1", () => {
    expect(index.search("select:mcp__slack__slack_post_message,mcp__github__get_me").hits).toEqual([
      { name: "mcp__slack__slack_post_message", score: 1 },
      { name: "mcp__github__get_me", score: 1 },
    ]);
  });
  test("missing names are reported, found ones still returned", () => {
    const outcome = index.search("select:mcp__github__get_me,mcp__github__nope,Nothing");
    expect(outcome.hits.map((h) => h.name)).toEqual(["mcp__github__get_me"]);
    expect(outcome.missing).toEqual(["mcp__github__nope", "Nothing"]);
  });
  test("falls back to a case-insensitive match and to aliases", () => {
    const withAlias = buildTool({
      name: "NotebookEdit",
      aliases: ["EditNotebook"],
      description: "Edit a Jupyter notebook cell",
      prompt: () => "",
      inputSchema: z.object({}),
      call: async () => ({ data: "" }),
    });
    const small = ToolIndex.build([withAlias]);
    expect(small.search("select:notebookedit").hits.map((h) => h.name)).toEqual(["NotebookEdit"]);
    expect(small.search("select:EditNotebook").hits.map((h) => h.name)).toEqual(["NotebookEdit"]);
  });
  test("select is not limited by k", () => {
    expect(index.search("select:mcp__github__get_me,mcp__slack__slack_post_message", 1).hits).toHaveLength(2);
  });
});

describe("queries with nothing to match", () => {
  for (const query of ["", "   ", "🙂🚀", "the a of", "+", "日本語のクエリ"]) {
    test(JSON.stringify(query), () => expect(index.search(query, 5).hits, query).toEqual([]));
  }
});

describe("searchHint", () => {
  test("hint words find a tool whose description lacks them", () => {
    const notebook = buildTool({
      name: "NotebookEdit",
      searchHint: "jupyter ipynb cell",
      description: "Replace the contents of a cell.",
      prompt: () => "",
      inputSchema: z.object({}),
      call: async () => ({ data: "" }),
    });
    const small = ToolIndex.build([...smallCatalogTools(), notebook]);
    expect(small.search("jupyter", 1).hits[0]?.name).toBe("NotebookEdit");
  });
});

describe("index file", () => {
  test("an index restored from its bytes answers like the original", () => {
    const restored = decodeIndex(encodeIndex(index));
    for (const query of ["open a PR", "+slack send", "select:mcp__github__get_me", "screnshot"]) {
      expect(restored.search(query, 5), query).toEqual(index.search(query, 5));
    }
  });
});
