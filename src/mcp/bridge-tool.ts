/** MCP tools of a live connection: the shared definition builder with the client's output shape. */
import type { ContentBlock } from "../tool/messages.ts";
import type { AnyTool, ToolContext, ToolResult } from "../tool/types.ts";
import { buildMcpDefinitionTool, type McpToolDefinition } from "./definition-tool.ts";

export type { McpToolDefinition };

export interface McpToolOutput {
  content: ContentBlock[];
  structuredContent?: unknown;
}

export type McpToolCall = (
  input: Record<string, unknown>,
  ctx: ToolContext,
) => Promise<ToolResult<McpToolOutput>>;

export interface BridgeOptions {
  /** The server's `alwaysLoad: true` exempts its tools from deferral. */
  alwaysLoad?: boolean;
}

/** `mcp__<server>__<tool>`, deferred unless the server is always loaded, the server's schema as is. */
export function buildMcpBridgeTool(
  server: string,
  definition: McpToolDefinition,
  call: McpToolCall,
  options: BridgeOptions = {},
): AnyTool {
  return buildMcpDefinitionTool<McpToolOutput>(server, definition, call, {
    alwaysLoad: options.alwaysLoad === true,
    toContent: (output) => output.content,
    structuredContent: (output) => output.structuredContent,
    renderResult: (output) =>
      output.content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join("\n"),
  });
}
