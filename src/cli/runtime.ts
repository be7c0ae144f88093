/**
 * Builds the pool and opens sessions from the global options, wired the same way for `tools`,
 * `run`, `serve`, `hook` and `agent`.
 */
import { getAllBaseTools } from "../pool/base-tools.ts";
import { decideDeferral } from "../pool/deferral.ts";
import { ToolPool } from "../pool/tool-pool.ts";
import { toolOnlyPolicy } from "../exec/permission.ts";
import { createSession, type RuntimeSession } from "../exec/session.ts";
import { DiscoveredTools } from "../search/discovered.ts";
import type { InvokedBy } from "../tool/types.ts";
import { createToolSearchTool } from "../tools/tool-search/tool.ts";
import { type GlobalOptions, permissionModeOf, poolModeOf } from "./globals.ts";

export interface RuntimePool {
  pool: ToolPool;
  /** The deferred tools the model has found through ToolSearch in this session. */
  discovered: DiscoveredTools;
}

export interface RuntimeOptions {
  /** `tool_reference` blocks for the Anthropic API; JSON schemas in text for every other client. */
  searchResultStyle?: "tool_reference" | "schemas";
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
  const pool: ToolPool = new ToolPool([...getAllBaseTools(), toolSearch], {
    mode: poolModeOf(globals.mode),
    denyRules: globals.deny.map((rule) => ({ rule, source: "cli" })),
  });
  return { pool, discovered };
}

export function openSession(
  globals: GlobalOptions,
  invokedBy: InvokedBy,
  options: RuntimeOptions = {},
): RuntimeSession {
  const { pool } = buildRuntimePool(globals, options);
  return createSession({
    pool,
    policy: toolOnlyPolicy,
    cwd: globals.cwd,
    stateDir: globals.stateDir,
    mode: permissionModeOf(globals.mode),
    invokedBy,
  });
}
