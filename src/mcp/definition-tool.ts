/**
 * A Tool built from an MCP tool definition (`tools/list` entry). The name becomes
 * `mcp__<server>__<tool>`, the JSON Schema is passed to the model unchanged, and the call is
 * injected by whoever owns the connection (the MCP client, or a test). MCP annotations do not
 * loosen anything: a `readOnlyHint` is the server's claim, not proof, so permission stays with
 * policy; `destructiveHint` only ever adds caution.
 */
import { z } from "zod";
import { buildTool } from "../tool/build-tool.ts";
import type { AnyTool, JsonSchema, Tool } from "../tool/types.ts";

export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface McpToolDefinition {
  name: string;
  description?: string;
  inputSchema: JsonSchema;
  annotations?: McpToolAnnotations;
}

export type McpCall = Tool<Record<string, unknown>, unknown>["call"];

/** Characters outside `[A-Za-z0-9_-]` become `_`, as model APIs require of tool names. */
export function normalizeNamePart(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_");
}

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeNamePart(server)}__${normalizeNamePart(tool)}`;
}

/** Any JSON object: the server validates against its own schema, which the model already sees. */
const anyObject = z.looseObject({});

export function buildMcpDefinitionTool(
  server: string,
  definition: McpToolDefinition,
  call: McpCall,
): AnyTool {
  const description = definition.description ?? "";
  const destructive = definition.annotations?.destructiveHint === true;
  return buildTool<Record<string, unknown>, unknown>({
    name: mcpToolName(server, definition.name),
    origin: { kind: "mcp", server, originalName: definition.name },
    description,
    prompt: () => description,
    inputSchema: anyObject,
    inputJSONSchema: () => definition.inputSchema,
    isDestructive: () => destructive,
    call,
  });
}
