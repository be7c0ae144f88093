/**
 * The policy's search scope (`tools.search`, `tools.searchServers`) applied to a list of tools:
 * what ToolSearch and `toolrt search` may find. Built-ins are origin `builtin`; MCP tools are
 * origin `mcp` (plugins' MCP servers included); plugin and remote tools are found only when both
 * kinds are. A server list keeps only the listed servers' (plugins', agents') tools.
 */
import type { SearchScope } from "../policy/policy.ts";
import type { AnyTool } from "../tool/types.ts";

export const UNRESTRICTED: SearchScope = { builtins: true, mcp: true, setBy: [] };

export function searchableTools<T extends AnyTool>(tools: readonly T[], scope: SearchScope): T[] {
  if (scope.builtins && scope.mcp && !scope.servers) return [...tools];
  return tools.filter((tool) => isSearchable(tool, scope));
}

function isSearchable(tool: AnyTool, scope: SearchScope): boolean {
  if (tool.origin.kind === "builtin") return scope.builtins;
  const listed = !scope.servers || scope.servers.includes(tool.origin.server ?? "");
  if (tool.origin.kind === "mcp") return scope.mcp && listed;
  return scope.builtins && scope.mcp && listed;
}

/** Says why nothing can be found, when the scope leaves nothing of `total` tools (if known). */
export function scopeNote(scope: SearchScope, searchable: number, total?: number): string | undefined {
  if (searchable > 0 || total === 0 || scope.setBy.length === 0) return undefined;
  return `Tool search is restricted by policy (${scope.setBy.join(", ")}): no deferred tool may be found.`;
}
