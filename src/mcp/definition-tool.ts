/**
 * A Tool built from an MCP tool definition (`tools/list` entry), used by the MCP client and by
 * catalogs. The name becomes `mcp__<server>__<tool>`, the JSON Schema is passed to the model
 * unchanged, and the call is injected by whoever owns the connection (the MCP client, or a test).
 * MCP annotations do not loosen anything: a `readOnlyHint` is the server's claim, not proof, so it
 * is kept as a hint on the origin and permission stays with policy; `destructiveHint` only ever
 * adds caution.
 */
import { z } from "zod";
import { buildTool } from "../tool/build-tool.ts";
import type { ContentBlock } from "../tool/messages.ts";
import type { AnyTool, JsonSchema, SourceHints, Tool } from "../tool/types.ts";

export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface McpToolDefinition {
  name: string;
  /** A name for people (the tool's `title`, else its annotations' `title`). */
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  /** The JSON Schema of the tool's `structuredContent`. */
  outputSchema?: JsonSchema;
  annotations?: McpToolAnnotations;
}

export type McpCall<Output = unknown> = Tool<Record<string, unknown>, Output>["call"];

export interface McpToolOptions<Output> {
  /** The server's `alwaysLoad: true` exempts its tools from deferral. */
  alwaysLoad?: boolean;
  /** How the output reaches the model (default: text or JSON). */
  toContent?: (output: Output) => ContentBlock[];
  /** How a person sees the output. */
  renderResult?: (output: Output) => string;
  /** The call's structured result (`structuredContent`), for clients that take one. */
  structuredContent?: (output: Output) => unknown;
}

/** Characters outside `[A-Za-z0-9_-]` become `_`, as model APIs require of tool names. */
export function normalizeNamePart(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_");
}

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeNamePart(server)}__${normalizeNamePart(tool)}`;
}

/** Any JSON object: the server validates against its own schema, which the model already sees. */
const anyObject = z.looseObject({});

export function buildMcpDefinitionTool<Output = unknown>(
  server: string,
  definition: McpToolDefinition,
  call: McpCall<Output>,
  options: McpToolOptions<Output> = {},
): AnyTool {
  const description = definition.description ?? "";
  const destructive = definition.annotations?.destructiveHint === true;
  const hints = hintsOf(definition.annotations);
  const title = definition.title ?? definition.annotations?.title;
  const outputSchema = definition.outputSchema;
  return buildTool<Record<string, unknown>, Output>({
    name: mcpToolName(server, definition.name),
    origin: { kind: "mcp", server, originalName: definition.name, ...(hints ? { hints } : {}) },
    ...(title ? { title } : {}),
    ...(outputSchema ? { outputJSONSchema: () => outputSchema } : {}),
    ...(options.structuredContent ? { structuredContent: options.structuredContent } : {}),
    description,
    prompt: () => description,
    inputSchema: anyObject,
    inputJSONSchema: () => definition.inputSchema,
    isDestructive: () => destructive,
    shouldDefer: true,
    alwaysLoad: options.alwaysLoad === true,
    call,
    ...(options.toContent ? { toContent: options.toContent } : {}),
    ...(options.renderResult ? { render: { result: options.renderResult } } : {}),
  });
}

/** MCP annotations kept as claims; they never make the tool read-only or allowed. */
function hintsOf(annotations: McpToolAnnotations | undefined): SourceHints | undefined {
  if (!annotations) return undefined;
  const hints: SourceHints = {};
  if (annotations.readOnlyHint !== undefined) hints.readOnly = annotations.readOnlyHint;
  if (annotations.destructiveHint !== undefined) hints.destructive = annotations.destructiveHint;
  if (annotations.idempotentHint !== undefined) hints.idempotent = annotations.idempotentHint;
  if (annotations.openWorldHint !== undefined) hints.openWorld = annotations.openWorldHint;
  return Object.keys(hints).length > 0 ? hints : undefined;
}
