import { describe, expect, test } from "bun:test";
import { buildMcpBridgeTool } from "../../src/mcp/bridge-tool.ts";
import { MAX_IMAGE_BYTES, mcpResultToContent } from "../../src/mcp/content.ts";
import { mcpToolName } from "../../src/mcp/definition-tool.ts";
import { decideDeferral } from "../../src/pool/deferral.ts";
import { toolLevelAnswers } from "../../src/pool/describe.ts";

describe("MCP results as content", () => {
  test("over the token budget: cut in place, with a notice", () => {
    const content = mcpResultToContent({ content: [{ type: "text", text: "y".repeat(1_000) }] }, 100);
    expect(content).toHaveLength(2);
    expect(content[0]).toEqual({ type: "text", text: "y".repeat(400) });
    expect(content[1]).toEqual({ type: "text", text: "\n\n[OUTPUT TRUNCATED - exceeded 100 token limit]" });
  });

  test("within budget: untouched", () => {
    const content = mcpResultToContent({ content: [{ type: "text", text: "short" }] }, 100);
    expect(content).toEqual([{ type: "text", text: "short" }]);
  });

  test("an image over the size cap becomes a notice, not a block", () => {
    const data = "A".repeat(Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 8);
    const [block] = mcpResultToContent({ content: [{ type: "image", data, mimeType: "image/png" }] }, 1e9);
    expect(block?.type).toBe("text");
    expect(block?.type === "text" && block.text).toContain("omitted: over the 5.0 MB cap");
  });

  test("structured content alone is shown as JSON; next to text it is not repeated", () => {
    expect(mcpResultToContent({ content: [], structuredContent: { a: 1 } }, 1e9)).toEqual([
      { type: "text", text: '{\n  "a": 1\n}' },
    ]);
    expect(mcpResultToContent({ content: [{ type: "text", text: "t" }], structuredContent: { a: 1 } }, 1e9))
      .toHaveLength(1);
  });

  test("resource links and embedded resources become text", () => {
    const content = mcpResultToContent({
      content: [
        { type: "resource_link", uri: "file:///a", name: "a" },
        { type: "resource", resource: { uri: "file:///b", text: "inside b" } },
      ],
    }, 1e9);
    expect(content).toEqual([
      { type: "text", text: "[resource link: a <file:///a>]" },
      { type: "text", text: "inside b" },
    ]);
  });
});

describe("bridge tool", () => {
  const definition = {
    name: "get.issue",
    description: "Gets an issue",
    inputSchema: { type: "object", properties: { id: { type: "number" } } },
    annotations: { readOnlyHint: true, destructiveHint: false },
  };
  const tool = buildMcpBridgeTool("git hub", definition, async () => ({ data: { content: [] } }));

  test("named mcp__<server>__<tool> in the allowed characters, the server's schema passed through", () => {
    expect(tool.name).toBe("mcp__git_hub__get_issue");
    expect(mcpToolName("a/b", "c d")).toBe("mcp__a_b__c_d");
    expect(tool.inputJSONSchema()).toBe(definition.inputSchema);
    expect(tool.origin).toMatchObject({ kind: "mcp", server: "git hub", originalName: "get.issue" });
  });

  test("deferred by default; alwaysLoad exempts", () => {
    expect(decideDeferral(tool).deferred).toBe(true);
    const loaded = buildMcpBridgeTool("s", definition, async () => ({ data: { content: [] } }), {
      alwaysLoad: true,
    });
    expect(decideDeferral(loaded).deferred).toBe(false);
  });

  test("readOnlyHint is kept as a hint and never makes the tool read-only", () => {
    expect(tool.origin.hints).toEqual({ readOnly: true, destructive: false });
    expect(tool.isReadOnly({})).toBe(false);
    expect(toolLevelAnswers(tool).readOnly).toBe(false);
  });
});
