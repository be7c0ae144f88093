/**
 * The `tools` array of each request: the pool through the provider serialization
 * (`serialize.ts`: client-side ToolSearch, or `defer_loading` beside the server's search tool when
 * `serverToolSearch` is set), plus the prompt-cache breakpoint on the last built-in tool. Built-ins
 * are a stable sorted prefix, so the cached prefix survives MCP tools coming and going after it.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { type AssembledPool, isDeferredIn } from "../pool/assemble.ts";
import { serializeTools, type ServerToolSearch } from "./serialize.ts";

export type RequestTool = Anthropic.Messages.ToolUnion;

export function requestTools(
  pool: AssembledPool,
  discovered: ReadonlySet<string>,
  serverToolSearch: ServerToolSearch | false = false,
): RequestTool[] {
  const entries = pool.tools.map((tool) => ({ tool, deferred: isDeferredIn(pool, tool) }));
  const tools = serializeTools(entries, { serverToolSearch, discovered });
  const builtins = new Set(pool.tools.filter((t) => t.origin.kind === "builtin").map((t) => t.name));
  // A deferred tool may not carry cache_control (the API refuses it).
  const last = tools.findLastIndex((t) => builtins.has(t.name) && !("defer_loading" in t));
  return tools.map((tool, index) =>
    (index === last ? { ...tool, cache_control: { type: "ephemeral" } } : tool) as RequestTool
  );
}

/** Names a ToolSearch result made available: its `tool_reference` blocks. */
export function referencedTools(content: readonly { type: string; tool_name?: string }[]): string[] {
  return content.flatMap((
    block,
  ) => (block.type === "tool_reference" && block.tool_name ? [block.tool_name] : []));
}
