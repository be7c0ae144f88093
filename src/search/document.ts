/**
 * What the index reads of a tool, field by field: its name (server part apart), searchHint,
 * description, argument names, and argument descriptions with their enum values; and the kinds of
 * input it requires and takes, for the re-ranker.
 */
import type { AnyTool, JsonSchema } from "../tool/types.ts";
import { schemaInputs, type ToolInputs } from "./inputs.ts";

export interface SearchDocument {
  /** The name the model calls the tool by. */
  name: string;
  /** Words of the tool's own name (for MCP tools, without the `mcp__server__` part). */
  toolName: string;
  /** MCP server, plugin or remote agent the tool comes from. */
  server: string;
  hint: string;
  description: string;
  argNames: string;
  argText: string;
  /** What the tool's input schema says it needs (see `inputs.ts`). */
  inputs: ToolInputs;
}

/** How deep argument schemas are walked: nested objects rarely name what the tool is for. */
const MAX_SCHEMA_DEPTH = 3;

export function toolDocument(tool: AnyTool): SearchDocument {
  const server = tool.origin.server ?? "";
  const args = { names: [] as string[], text: [] as string[] };
  const schema = tool.inputJSONSchema();
  collectArguments(schema, 0, args);
  return {
    name: tool.name,
    toolName: tool.origin.originalName ?? stripServerPrefix(tool.name, server),
    server,
    hint: tool.searchHint ?? "",
    description: tool.description,
    argNames: args.names.join(" "),
    argText: args.text.join(" "),
    inputs: schemaInputs(schema),
  };
}

function stripServerPrefix(name: string, server: string): string {
  const prefix = `mcp__${server}__`;
  return server && name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

function collectArguments(schema: unknown, depth: number, out: { names: string[]; text: string[] }): void {
  if (!isSchema(schema) || depth > MAX_SCHEMA_DEPTH) return;
  if (typeof schema.description === "string" && depth > 0) out.text.push(schema.description);
  if (Array.isArray(schema.enum)) {
    for (const value of schema.enum) if (typeof value === "string") out.text.push(value);
  }
  if (isSchema(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      out.names.push(name);
      collectArguments(property, depth + 1, out);
    }
  }
  collectArguments(schema.items, depth + 1, out);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const variants = schema[key];
    if (Array.isArray(variants)) { for (const variant of variants) collectArguments(variant, depth, out); }
  }
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
