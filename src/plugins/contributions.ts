/**
 * What the enabled plugins bring to the other parts of the runtime, in the shapes those parts read:
 * MCP servers as `.mcp.json` entries, hooks as one HooksConfig, agent definitions, LSP server specs.
 */
import type { LspServerSpec } from "../lsp/config.ts";
import { type HooksConfig, mergeHooks } from "../policy/hooks-schema.ts";
import type { AgentDefinition } from "./agents.ts";
import type { LoadedPlugin } from "./load.ts";
import type { McpServerEntry } from "./manifest.ts";

/** The name a plugin's MCP server gets, so its tools are `mcp__plugin_<plugin>_<server>__<tool>`. */
function pluginMcpServerName(plugin: string, server: string): string {
  return `plugin_${plugin}_${server}`;
}

/** The MCP servers of the plugins, in `.mcp.json` shape: `{ mcpServers: { name: entry } }`. */
export function pluginMcpServers(
  plugins: readonly LoadedPlugin[],
): { mcpServers: Record<string, McpServerEntry> } {
  const mcpServers: Record<string, McpServerEntry> = {};
  for (const plugin of plugins) {
    for (const [server, entry] of Object.entries(plugin.mcpServers)) {
      mcpServers[pluginMcpServerName(plugin.name, server)] = entry;
    }
  }
  return { mcpServers };
}

/** Every plugin's hooks in one config: the matcher groups of each event, plugin after plugin. */
export function pluginHooks(plugins: readonly LoadedPlugin[]): HooksConfig {
  return mergeHooks(plugins.map((plugin) => plugin.hooks));
}

export function pluginAgents(plugins: readonly LoadedPlugin[]): AgentDefinition[] {
  return plugins.flatMap((plugin) => plugin.agents);
}

export function pluginLspServers(plugins: readonly LoadedPlugin[]): LspServerSpec[] {
  return plugins.flatMap((plugin) =>
    Object.entries(plugin.lspServers).map(([name, config]) => ({
      name,
      owner: plugin.name,
      config,
      root: plugin.root,
    }))
  );
}
