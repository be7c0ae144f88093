import { describe, expect, test } from "bun:test";
import { type ApiTool, type PoolEntry, serializeTools } from "../../src/agent/serialize.ts";
import { decideDeferral } from "../../src/pool/deferral.ts";
import { fakeTool, mcpTool } from "../helpers/fake-tools.ts";

const entry = (tool: ReturnType<typeof fakeTool>): PoolEntry => ({
  tool,
  deferred: decideDeferral(tool).deferred,
});
const pool: PoolEntry[] = [
  entry(fakeTool("Bash")),
  entry(fakeTool("Read")),
  entry(fakeTool("ToolSearch", { alwaysLoad: true })),
  entry(fakeTool("WebFetch", { shouldDefer: true })),
  entry(mcpTool("github", "create_issue")),
  entry(mcpTool("slack", "post")),
];
const nothingFound = { has: () => false };
const names = (tools: ApiTool[]) => tools.map((t) => t.name);
const deferredNames = (tools: ApiTool[]) => tools.filter((t) => "defer_loading" in t).map((t) => t.name);

describe("serializeTools, provider with server-side tool search", () => {
  const tools = serializeTools(pool, { serverToolSearch: "bm25", discovered: nothingFound });

  test("every tool in full, deferred ones flagged, the server search tool after the built-ins", () => {
    expect(names(tools)).toEqual([
      "Bash",
      "Read",
      "WebFetch",
      "tool_search_tool_bm25",
      "mcp__github__create_issue",
      "mcp__slack__post",
    ]);
    expect(deferredNames(tools)).toEqual(["WebFetch", "mcp__github__create_issue", "mcp__slack__post"]);
    expect(tools[3]).toEqual({ type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" });
    expect(tools[0]).toEqual({
      name: "Bash",
      description: "Use Bash for testing.",
      input_schema: expect.any(Object),
    });
  });

  test("the regex variant by setting", () => {
    const regex = serializeTools(pool, { serverToolSearch: "regex", discovered: nothingFound });
    expect(regex).toContainEqual({ type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" });
  });

  test("at least one tool stays loaded when all are deferred", () => {
    const allDeferred = [entry(mcpTool("a", "x")), entry(mcpTool("b", "y"))];
    const out = serializeTools(allDeferred, { serverToolSearch: "bm25", discovered: nothingFound });
    expect(deferredNames(out)).toEqual(["mcp__b__y"]);
  });

  test("nothing deferred: no search tool and no flags", () => {
    const out = serializeTools([entry(fakeTool("Read"))], {
      serverToolSearch: "bm25",
      discovered: nothingFound,
    });
    expect(out).toEqual([{
      name: "Read",
      description: "Use Read for testing.",
      input_schema: expect.any(Object),
    }]);
  });

  test("the built-in prefix is the same whatever MCP tools come and go", () => {
    const fewer = serializeTools(pool.slice(0, 5), { serverToolSearch: "bm25", discovered: nothingFound });
    expect(fewer.slice(0, 4)).toEqual(tools.slice(0, 4));
  });
});

describe("serializeTools, provider without tool search", () => {
  test("loaded tools and the client ToolSearch; deferred ones absent until discovered", () => {
    const out = serializeTools(pool, { serverToolSearch: false, discovered: nothingFound });
    expect(names(out)).toEqual(["Bash", "Read", "ToolSearch"]);
    expect(deferredNames(out)).toEqual([]);
  });

  test("discovered tools are sent in full, unflagged, after the built-in prefix", () => {
    const discovered = new Set(["mcp__slack__post", "WebFetch"]);
    const out = serializeTools(pool, { serverToolSearch: false, discovered });
    expect(names(out)).toEqual(["Bash", "Read", "ToolSearch", "WebFetch", "mcp__slack__post"]);
  });

  test("no ToolSearch when nothing is deferred", () => {
    const out = serializeTools([entry(fakeTool("Read")), entry(fakeTool("ToolSearch"))], {
      serverToolSearch: false,
      discovered: nothingFound,
    });
    expect(names(out)).toEqual(["Read"]);
  });
});
