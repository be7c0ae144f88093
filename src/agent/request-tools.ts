/**
 * The `tools` array of each request. This is the one seam for provider serialization: when
 * `src/agent/serialize.ts` (defer_loading with server tool search, or client-side ToolSearch)
 * is wired, only this function changes. Until then: the tools that are loaded — not deferred, or
 * discovered through a search — sent plainly, in pool order.
 *
 * The prompt-cache breakpoint goes on the last built-in tool: built-ins are a stable sorted
 * prefix, so the cached prefix survives MCP tools coming and going after it.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { AssembledPool } from "../pool/assemble.ts";
import type { AnyTool } from "../tool/types.ts";

export type RequestTool = Anthropic.Messages.Tool;

export function isDeferred(tool: AnyTool): boolean {
  return tool.shouldDefer && !tool.alwaysLoad;
}

export function requestTools(pool: AssembledPool, discovered: ReadonlySet<string>): RequestTool[] {
  const loaded = pool.tools.filter((tool) => !isDeferred(tool) || discovered.has(tool.name));
  const lastBuiltin = loaded.findLastIndex((tool) => tool.origin.kind === "builtin" && !isDeferred(tool));
  return loaded.map((tool, index) => ({
    name: tool.name,
    description: tool.prompt(),
    input_schema: tool.inputJSONSchema() as RequestTool["input_schema"],
    ...(index === lastBuiltin ? { cache_control: { type: "ephemeral" as const } } : {}),
  }));
}

/** Names a ToolSearch result made available: its `tool_reference` blocks. */
export function referencedTools(content: readonly { type: string; tool_name?: string }[]): string[] {
  return content.flatMap((
    block,
  ) => (block.type === "tool_reference" && block.tool_name ? [block.tool_name] : []));
}
