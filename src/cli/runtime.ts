/**
 * Loads the policy, connects the MCP servers, and builds the pool and the session from the global
 * options — wired the same way for `tools`, `check`, `run`, `serve`, `hook` and `agent`.
 */
import { type LoadOptions, loadPolicy, type LoadResult } from "../policy/load.ts";
import { DenialTracker } from "../policy/denials.ts";
import { grantForSession } from "../policy/session-grants.ts";
import { getAllBaseTools } from "../pool/base-tools.ts";
import { decideDeferral } from "../pool/deferral.ts";
import { ToolPool } from "../pool/tool-pool.ts";
import { rulesPolicy } from "../exec/rules-policy.ts";
import { createSession, type RuntimeSession } from "../exec/session.ts";
import type { McpManager } from "../mcp/manager.ts";
import { DiscoveredTools } from "../search/discovered.ts";
import type { InvokedBy } from "../tool/types.ts";
import { mcpResourceTools } from "../tools/mcp-resources/index.ts";
import { createToolSearchTool } from "../tools/tool-search/tool.ts";
import { ConfigError } from "./errors.ts";
import { type GlobalOptions, permissionModeOf, poolModeOf } from "./globals.ts";
import { openMcp } from "./mcp.ts";

export function loadOptionsOf(globals: GlobalOptions): LoadOptions {
  return {
    cwd: globals.cwd,
    stateDir: globals.stateDir,
    flagFiles: globals.policy,
    cliRules: { allow: globals.allow, ask: globals.ask, deny: globals.deny },
    mode: permissionModeOf(globals.mode),
    claudeSettings: globals.claudeSettings,
  };
}

/**
 * Loads the policy of the global options. A broken user, project, flag or CLI rule is a
 * configuration error (exit 2); a broken managed file is not: the policy then denies every call.
 */
export function loadForCli(globals: GlobalOptions): LoadResult {
  const loaded = loadPolicy(loadOptionsOf(globals));
  if (loaded.errors.length > 0) {
    const problems = loaded.errors.map((e) => e.message).join("\n");
    throw new ConfigError(`${problems}\n(toolrt policy validate lists every problem of the policy files)`);
  }
  return loaded;
}

export interface RuntimeOptions {
  /** `tool_reference` blocks for the Anthropic API; JSON schemas in text for every other client. */
  searchResultStyle?: "tool_reference" | "schemas";
}

export interface Runtime {
  session: RuntimeSession;
  pool: ToolPool;
  /** The deferred tools the model has found through ToolSearch in this session. */
  discovered: DiscoveredTools;
  policy: LoadResult;
  mcp: McpManager;
}

/** Everything a command needs to run tools; `session.close()` stops MCP servers and tasks. */
export async function openRuntime(
  globals: GlobalOptions,
  invokedBy: InvokedBy,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const loaded = loadForCli(globals);
  const mcp = openMcp(globals);
  const discovered = new DiscoveredTools();
  // ToolSearch reads the pool it belongs to on every call: a getter breaks the cycle.
  const toolSearch = createToolSearchTool({
    deferredTools: () => pool.current.tools.filter((tool) => decideDeferral(tool).deferred),
    discovered,
    resultStyle: options.searchResultStyle ?? "schemas",
    stateDir: globals.stateDir,
  });
  const pool: ToolPool = new ToolPool([...getAllBaseTools(), toolSearch, ...mcpResourceTools(mcp)], {
    mode: poolModeOf(globals.mode),
    denyRules: loaded.policy.blanketDenies(),
  });
  mcp.attach(pool);
  await mcp.connectAll();

  // "Always allow" answers become session rules: the policy is recompiled with the grant.
  let rules = loaded.policy;
  const denials = new DenialTracker();
  const session = createSession({
    pool,
    policy: (request) => rulesPolicy(rules, denials)(request),
    hooks: loaded.policy.hooks(),
    cwd: globals.cwd,
    stateDir: globals.stateDir,
    mode: permissionModeOf(globals.mode),
    invokedBy,
    grant: (rule) => {
      rules = grantForSession(rules, globals.stateDir, globals.cwd, rule);
    },
    onClose: () => mcp.close(),
  });
  return { session, pool, discovered, policy: loaded, mcp };
}
