/**
 * An MCP tool definition as a Tool. Scoped to the bridge until `src/mcp/definition-tool.ts`
 * (the shared builder from a definition plus an injected `call`) replaces it; the manager only
 * ever calls `buildMcpBridgeTool`, so the swap is one import.
 */
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { buildTool } from "../tool/build-tool.ts";
import type { ContentBlock } from "../tool/messages.ts";
import type { AnyTool, JsonSchema, SourceHints, ToolContext, ToolResult } from "../tool/types.ts";
import { mcpToolName } from "./names.ts";

export interface McpToolDefinition {
  name: string;
  description?: string;
  inputSchema: JsonSchema;
  annotations?: ToolAnnotations;
}

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
  const description = definition.description ?? "";
  const hints = hintsOf(definition.annotations);
  return buildTool<Record<string, unknown>, McpToolOutput>({
    name: mcpToolName(server, definition.name),
    description,
    prompt: () => description,
    origin: { kind: "mcp", server, originalName: definition.name, ...(hints ? { hints } : {}) },
    // Arguments are checked by the server against its own schema.
    inputSchema: z.record(z.string(), z.unknown()),
    inputJSONSchema: () => definition.inputSchema,
    call,
    toContent: (output) => output.content,
    shouldDefer: true,
    alwaysLoad: options.alwaysLoad === true,
    render: { result: (output) => textOf(output.content) },
  });
}

/** MCP annotations kept as claims; they never make the tool read-only or allowed. */
export function hintsOf(annotations: ToolAnnotations | undefined): SourceHints | undefined {
  if (!annotations) return undefined;
  const hints: SourceHints = {};
  if (annotations.readOnlyHint !== undefined) hints.readOnly = annotations.readOnlyHint;
  if (annotations.destructiveHint !== undefined) hints.destructive = annotations.destructiveHint;
  if (annotations.idempotentHint !== undefined) hints.idempotent = annotations.idempotentHint;
  if (annotations.openWorldHint !== undefined) hints.openWorld = annotations.openWorldHint;
  return Object.keys(hints).length > 0 ? hints : undefined;
}

function textOf(content: readonly ContentBlock[]): string {
  return content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join("\n");
}
