/** Loading a workspace's MCP servers into a manager: the one place CLI commands start from. */
import { defaultMcpConfigFiles, loadMcpConfig, type PluginMcpServers } from "./config-sources.ts";
import { McpManager, type McpManagerOptions } from "./manager.ts";

export interface McpSetupOptions extends Omit<McpManagerOptions, "workspace"> {
  cwd: string;
  stateDir: string;
  /** `--mcp-config` files. */
  configFiles: readonly string[];
  /** Servers of enabled plugins. */
  plugins?: readonly PluginMcpServers[];
}

/** Reads every scope (throws McpConfigError on a broken file) and builds the manager, unconnected. */
export function createMcpManager(options: McpSetupOptions): { manager: McpManager; notes: string[] } {
  const { cwd, stateDir, configFiles, plugins, ...managerOptions } = options;
  const files = defaultMcpConfigFiles(cwd, configFiles, options.env);
  const { servers, notes } = loadMcpConfig(files, {
    workspace: cwd,
    stateDir,
    ...(plugins ? { plugins } : {}),
  });
  return { manager: new McpManager(servers, { ...managerOptions, workspace: cwd, stateDir }), notes };
}
