/**
 * The `tools` array of a Messages API request, from the pool and its deferral decisions.
 *
 * - Provider with server-side tool search (first-party Anthropic API): every tool is sent in
 *   full, deferred ones with `defer_loading: true`, plus the server's search tool (regex or BM25);
 *   the client ToolSearch is left out since the server one replaces it.
 * - Any other provider (gateways, other vendors, local models): only loaded tools and the ones the
 *   session has discovered, plus the client-side ToolSearch while anything is still deferred.
 *
 * Built-ins come first in pool order, so the cached prompt prefix holds while MCP tools come and
 * go. The search tool is never deferred, and at least one tool always loads (the API refuses a
 * request whose tools are all deferred).
 */
import { TOOL_SEARCH_NAME } from "../tools/tool-search/schema.ts";
import type { AnyTool, JsonSchema } from "../tool/types.ts";

export type ServerToolSearch = "regex" | "bm25";

export interface ApiToolDefinition {
  name: string;
  description: string;
  input_schema: JsonSchema;
  defer_loading?: true;
}

export interface ApiServerSearchTool {
  type: "tool_search_tool_regex_20251119" | "tool_search_tool_bm25_20251119";
  name: "tool_search_tool_regex" | "tool_search_tool_bm25";
}

export type ApiTool = ApiToolDefinition | ApiServerSearchTool;

export interface PoolEntry {
  tool: AnyTool;
  deferred: boolean;
}

export interface SerializeOptions {
  /** The provider's server-side tool search, or false when it has none. */
  serverToolSearch: ServerToolSearch | false;
  /** Names the session found through ToolSearch (sent in full on the client-side path). */
  discovered: { has(name: string): boolean };
}

function serverSearchTool(variant: ServerToolSearch): ApiServerSearchTool {
  return variant === "regex"
    ? { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" }
    : { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" };
}

export function serializeTools(entries: readonly PoolEntry[], options: SerializeOptions): ApiTool[] {
  const ordered = [
    ...entries.filter((e) => e.tool.origin.kind === "builtin"),
    ...entries.filter((e) => e.tool.origin.kind !== "builtin"),
  ];
  const anyDeferred = ordered.some((e) => e.deferred && e.tool.name !== TOOL_SEARCH_NAME);
  return options.serverToolSearch
    ? withServerSearch(ordered, options.serverToolSearch, anyDeferred)
    : withClientSearch(ordered, options.discovered, anyDeferred);
}

function withServerSearch(
  entries: readonly PoolEntry[],
  variant: ServerToolSearch,
  anyDeferred: boolean,
): ApiTool[] {
  const tools = entries.filter((e) => e.tool.name !== TOOL_SEARCH_NAME);
  if (!anyDeferred) return tools.map((e) => definition(e.tool, false));
  const firstLoaded = tools.findIndex((e) => !e.deferred);
  const definitions = tools.map((e, i) => definition(e.tool, e.deferred && (firstLoaded >= 0 || i > 0)));
  const builtinCount = tools.filter((e) => e.tool.origin.kind === "builtin").length;
  return [
    ...definitions.slice(0, builtinCount),
    serverSearchTool(variant),
    ...definitions.slice(builtinCount),
  ];
}

function withClientSearch(
  entries: readonly PoolEntry[],
  discovered: SerializeOptions["discovered"],
  anyDeferred: boolean,
): ApiTool[] {
  return entries
    .filter((e) =>
      e.tool.name === TOOL_SEARCH_NAME ? anyDeferred : !e.deferred || discovered.has(e.tool.name)
    )
    .map((e) => definition(e.tool, false));
}

function definition(tool: AnyTool, deferred: boolean): ApiToolDefinition {
  return {
    name: tool.name,
    description: tool.prompt(),
    input_schema: tool.inputJSONSchema(),
    ...(deferred ? { defer_loading: true as const } : {}),
  };
}
