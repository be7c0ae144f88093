/**
 * Builds the pool and opens sessions from the global options, wired the same way for `tools`,
 * `run`, `serve`, `hook` and `agent`.
 */
import { PluginHost } from "../plugins/host.ts";
import { getAllBaseTools } from "../pool/base-tools.ts";
import { decideDeferral } from "../pool/deferral.ts";
import { ToolPool } from "../pool/tool-pool.ts";
import { toolOnlyPolicy } from "../exec/permission.ts";
import { createSession, type RuntimeSession } from "../exec/session.ts";
import { DiscoveredTools } from "../search/discovered.ts";
import type { InvokedBy } from "../tool/types.ts";
import { createSkillTool, SkillCatalog } from "../tools/skill/tool.ts";
import { createToolSearchTool } from "../tools/tool-search/tool.ts";
import { type GlobalOptions, permissionModeOf, poolModeOf } from "./globals.ts";

export interface RuntimePool {
  pool: ToolPool;
  /** The deferred tools the model has found through ToolSearch in this session. */
  discovered: DiscoveredTools;
  /** The plugin source: already loaded into the pool; reload/enable/disable go through it. */
  plugins: PluginHost;
}

export interface RuntimeOptions {
  /** `tool_reference` blocks for the Anthropic API; JSON schemas in text for every other client. */
  searchResultStyle?: "tool_reference" | "schemas";
  /** The managed allow-list of plugin names (from managed policy); absent means no list. */
  allowedPlugins?: readonly string[];
}

export function buildRuntimePool(globals: GlobalOptions, options: RuntimeOptions = {}): RuntimePool {
  const discovered = new DiscoveredTools();
  // ToolSearch reads the pool it belongs to on every call: a getter breaks the cycle.
  const toolSearch = createToolSearchTool({
    deferredTools: () => pool.current.tools.filter((tool) => decideDeferral(tool).deferred),
    discovered,
    resultStyle: options.searchResultStyle ?? "schemas",
    stateDir: globals.stateDir,
  });
  const skills = new SkillCatalog();
  const pool: ToolPool = new ToolPool([...getAllBaseTools(), toolSearch, createSkillTool(skills)], {
    mode: poolModeOf(globals.mode),
    denyRules: globals.deny.map((rule) => ({ rule, source: "cli" })),
  });
  const plugins = new PluginHost({
    pool,
    skills,
    cwd: globals.cwd,
    stateDir: globals.stateDir,
    allowedPlugins: options.allowedPlugins,
  });
  plugins.reload();
  return { pool, discovered, plugins };
}

export function openSession(
  globals: GlobalOptions,
  invokedBy: InvokedBy,
  options: RuntimeOptions = {},
): RuntimeSession {
  const { pool, plugins } = buildRuntimePool(globals, options);
  return createSession({
    pool,
    policy: toolOnlyPolicy,
    cwd: globals.cwd,
    stateDir: globals.stateDir,
    mode: permissionModeOf(globals.mode),
    invokedBy,
    enrichers: [plugins.diagnosticsEnricher],
    onClose: () => plugins.close(),
  });
}
