import { describe, expect, test } from "bun:test";
import type { SearchScope } from "../../../src/policy/policy.ts";
import { DiscoveredTools } from "../../../src/search/discovered.ts";
import type { ToolContext } from "../../../src/tool/types.ts";
import { createToolSearchTool } from "../../../src/tools/tool-search/tool.ts";
import { toolSearchInput } from "../../../src/tools/tool-search/schema.ts";
import { smallCatalogTools } from "../../search/helpers.ts";

const ctx = {} as ToolContext;

function setup(resultStyle: "tool_reference" | "schemas", scope?: SearchScope) {
  let deferred = smallCatalogTools();
  const discovered = new DiscoveredTools();
  const tool = createToolSearchTool({
    deferredTools: () => deferred,
    discovered,
    resultStyle,
    ...(scope ? { scope: () => scope } : {}),
  });
  const run = async (query: string, max_results = 5) => {
    const input = toolSearchInput.parse({ query, max_results });
    const { data } = await tool.call(input, ctx, () => {});
    return { data, content: tool.toContent(data, input) };
  };
  return { tool, discovered, run, setDeferred: (next: typeof deferred) => (deferred = next) };
}

describe("ToolSearch", () => {
  test("input is {query, max_results} with max_results defaulting to 5, nothing else", () => {
    expect(toolSearchInput.parse({ query: "x" })).toEqual({ query: "x", max_results: 5 });
    expect(toolSearchInput.safeParse({ query: "x", extra: 1 }).success).toBe(false);
    expect(toolSearchInput.safeParse({ query: "x", max_results: 0 }).success).toBe(false);
  });

  test("is never deferred, read-only and safe to run in parallel", () => {
    const { tool } = setup("schemas");
    expect(tool.alwaysLoad).toBe(true);
    expect(tool.isReadOnly({ query: "", max_results: 5 })).toBe(true);
    expect(tool.isConcurrencySafe({ query: "", max_results: 5 })).toBe(true);
  });

  test("found tools join the discovered set; tool_reference blocks then 'Tool loaded.'", async () => {
    const { run, discovered } = setup("tool_reference");
    const { data, content } = await run("+slack send", 1);
    expect(data.matches).toEqual(["mcp__slack__slack_post_message"]);
    expect(discovered.has("mcp__slack__slack_post_message")).toBe(true);
    expect(content).toEqual([
      { type: "tool_reference", tool_name: "mcp__slack__slack_post_message" },
      { type: "text", text: "Tool loaded." },
    ]);
  });

  test("schemas style returns the full definitions as text", async () => {
    const { run } = setup("schemas");
    const { content } = await run("select:mcp__github__get_me");
    const text = content[0]!.type === "text" ? content[0]!.text : "";
    const json = text.match(/<function>(.*)<\/function>/)![1]!;
    const definition = JSON.parse(json);
    expect(definition.name).toBe("mcp__github__get_me");
    expect(definition.input_schema).toEqual(
      smallCatalogTools().find((t) => t.name === "mcp__github__get_me")!.inputJSONSchema(),
    );
  });

  test("select of missing names says which; nothing found says so", async () => {
    const { run } = setup("tool_reference");
    const { data, content } = await run("select:mcp__github__get_me,mcp__github__nope");
    expect(data.missing).toEqual(["mcp__github__nope"]);
    expect(content.at(-1)).toEqual({
      type: "text",
      text: "No deferred tool named: mcp__github__nope\nTool loaded.",
    });
    const none = await run("+discord send");
    expect(none.data.matches).toEqual([]);
    expect(none.content).toHaveLength(1);
    expect(none.content[0]).toMatchObject({ type: "text" });
    expect(none.content[0]!.type === "text" && none.content[0]!.text).toContain(
      "No deferred tool name contains: discord",
    );
  });

  test("searches the pool as it is at call time", async () => {
    const { run, setDeferred } = setup("tool_reference");
    expect((await run("+slack send", 1)).data.matches).toHaveLength(1);
    setDeferred(smallCatalogTools().filter((t) => !t.name.startsWith("mcp__slack__")));
    expect((await run("+slack send", 1)).data.matches).toEqual([]);
  });

  test("the policy's search scope: other servers' tools are neither found nor loadable by select", async () => {
    const { run, discovered } = setup("tool_reference", {
      builtins: true,
      mcp: true,
      servers: ["slack"],
      setBy: ["p.json"],
    });
    const found = await run("send a message", 5);
    expect(found.data.matches.length).toBeGreaterThan(0);
    expect(found.data.matches.every((name) => name.startsWith("mcp__slack__"))).toBe(true);
    const selected = await run("select:mcp__github__get_me");
    expect(selected.data.missing).toEqual(["mcp__github__get_me"]);
    expect(discovered.has("mcp__github__get_me")).toBe(false);
  });

  test("a scope that leaves nothing says the policy restricts search", async () => {
    const { run } = setup("schemas", {
      builtins: true,
      mcp: false,
      setBy: ["/etc/toolrt/managed-policy.json"],
    });
    const { data, content } = await run("+slack send");
    expect(data.matches).toEqual([]);
    expect(data.total_deferred_tools).toBe(0);
    const text = content[0]!.type === "text" ? content[0]!.text : "";
    expect(text).toContain("Tool search is restricted by policy (/etc/toolrt/managed-policy.json)");
    expect(text).not.toContain("Try other keywords");
  });
});
