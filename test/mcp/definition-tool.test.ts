import { describe, expect, test } from "bun:test";
import { buildMcpDefinitionTool, mcpToolName } from "../../src/mcp/definition-tool.ts";
import type { ToolContext } from "../../src/tool/types.ts";

describe("MCP definition tools", () => {
  const schema = {
    type: "object",
    properties: { channel_id: { type: "string", description: "The channel" }, text: { type: "string" } },
    required: ["channel_id", "text"],
    additionalProperties: false,
  };

  test("names are mcp__<server>__<tool> with characters outside [A-Za-z0-9_-] replaced", () => {
    expect(mcpToolName("slack", "slack_post_message")).toBe("mcp__slack__slack_post_message");
    expect(mcpToolName("my server.io", "get/item:v2")).toBe("mcp__my_server_io__get_item_v2");
    expect(mcpToolName("notion", "API-post-page")).toBe("mcp__notion__API-post-page");
  });

  test("the origin, description and JSON Schema come through unchanged", () => {
    const tool = buildMcpDefinitionTool("my.server", {
      name: "post",
      description: "Post it",
      inputSchema: schema,
    }, async () => ({ data: "" }));
    expect(tool.name).toBe("mcp__my_server__post");
    expect(tool.origin).toEqual({ kind: "mcp", server: "my.server", originalName: "post" });
    expect(tool.description).toBe("Post it");
    expect(tool.prompt()).toBe("Post it");
    expect(tool.inputJSONSchema()).toBe(schema);
  });

  test("annotations never loosen: readOnlyHint is not trusted, destructiveHint adds caution", () => {
    const tool = buildMcpDefinitionTool("s", {
      name: "drop",
      inputSchema: schema,
      annotations: { readOnlyHint: true, destructiveHint: true },
    }, async () => ({ data: "" }));
    expect(tool.isReadOnly({})).toBe(false);
    expect(tool.isDestructive({})).toBe(true);
    expect(tool.description).toBe("");
  });

  test("the injected call runs with the input as given", async () => {
    const tool = buildMcpDefinitionTool(
      "s",
      { name: "echo", inputSchema: schema },
      async (input) => ({ data: input }),
    );
    expect(tool.inputSchema.safeParse({ channel_id: "c", extra: 1 }).success).toBe(true);
    expect((await tool.call({ a: 1 }, {} as ToolContext, () => {})).data).toEqual({ a: 1 });
  });
});
