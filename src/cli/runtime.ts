/**
 * Loads the policy and builds the pool and sessions from the global options, wired the same way for
 * `tools`, `check`, `run`, `serve`, `hook` and `agent`.
 */
import { getAllBaseTools } from "../pool/base-tools.ts";
import { decideDeferral } from "../pool/deferral.ts";
import { ToolPool } from "../pool/tool-pool.ts";
import { type LoadOptions, loadPolicy, type LoadResult } from "../policy/load.ts";
import { DenialTracker } from "../policy/denials.ts";
import { grantForSession } from "../policy/session-grants.ts";
import { rulesPolicy } from "../exec/rules-policy.ts";
import { createSession, type RuntimeSession } from "../exec/session.ts";
import { DiscoveredTools } from "../search/discovered.ts";
import type { AnyTool, InvokedBy, ToolContext } from "../tool/types.ts";
import { createToolSearchTool } from "../tools/tool-search/tool.ts";
import { ConfigError } from "./errors.ts";
import { type GlobalOptions, permissionModeOf, poolModeOf } from "./globals.ts";

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

export interface RuntimePool {
  pool: ToolPool;
  /** The deferred tools the model has found through ToolSearch in this session. */
  discovered: DiscoveredTools;
}

export interface RuntimeOptions {
  /** `tool_reference` blocks for the Anthropic API; JSON schemas in text for every other client. */
  searchResultStyle?: "tool_reference" | "schemas";
}

/** The pool over `tools` (default: the base tools) plus a ToolSearch of its own. */
export function buildRuntimePool(
  globals: GlobalOptions,
  loaded: LoadResult,
  options: RuntimeOptions = {},
  tools: readonly AnyTool[] = getAllBaseTools(),
): RuntimePool {
  const discovered = new DiscoveredTools();
  // ToolSearch reads the pool it belongs to on every call: a getter breaks the cycle.
  const toolSearch = createToolSearchTool({
    deferredTools: () => pool.current.tools.filter((tool) => decideDeferral(tool).deferred),
    discovered,
    resultStyle: options.searchResultStyle ?? "schemas",
    stateDir: globals.stateDir,
  });
  const pool: ToolPool = new ToolPool([...tools, toolSearch], {
    mode: poolModeOf(globals.mode),
    denyRules: loaded.policy.blanketDenies(),
  });
  return { pool, discovered };
}

export interface SessionSetup extends RuntimeOptions {
  /** A ready pool (an agent's, with its Agent tool and its definition's tools). */
  pool?: ToolPool;
  agent?: ToolContext["agent"];
}

export function openSession(
  globals: GlobalOptions,
  invokedBy: InvokedBy,
  options: SessionSetup = {},
): RuntimeSession {
  const loaded = loadForCli(globals);
  const pool = options.pool ?? buildRuntimePool(globals, loaded, options).pool;
  // "Always allow" answers become session rules: the policy is recompiled with the grant.
  let rules = loaded.policy;
  const denials = new DenialTracker();
  return createSession({
    pool,
    policy: (request) => rulesPolicy(rules, denials)(request),
    hooks: loaded.policy.hooks(),
    cwd: globals.cwd,
    stateDir: globals.stateDir,
    mode: permissionModeOf(globals.mode),
    invokedBy,
    ...(options.agent ? { agent: options.agent } : {}),
    grant: (rule) => {
      rules = grantForSession(rules, globals.stateDir, globals.cwd, rule);
    },
  });
}
