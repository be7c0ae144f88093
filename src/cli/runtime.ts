/**
 * Opens a session from the global options: the pool, the policy, hooks and the state dir, wired
 * the same way for `run`, `serve`, `hook` and `agent` (and for the subagents `agent` starts).
 */
import { getAllBaseTools } from "../pool/base-tools.ts";
import type { PoolOptions } from "../pool/assemble.ts";
import { ToolPool } from "../pool/tool-pool.ts";
import { toolOnlyPolicy } from "../exec/permission.ts";
import { createSession, type RuntimeSession } from "../exec/session.ts";
import type { AnyTool, InvokedBy, ToolContext } from "../tool/types.ts";
import { type GlobalOptions, permissionModeOf, poolModeOf } from "./globals.ts";

export interface SessionSetup {
  /** A ready pool (a subagent's, filtered by its definition) instead of one from the base tools. */
  pool?: ToolPool;
  /** Built-ins beside the base tools (the Agent tool of `toolrt agent`). */
  extraBuiltins?: readonly AnyTool[];
  agent?: ToolContext["agent"];
}

export function poolOptionsOf(globals: GlobalOptions): PoolOptions {
  return {
    mode: poolModeOf(globals.mode),
    denyRules: globals.deny.map((rule) => ({ rule, source: "cli" })),
  };
}

export function openSession(
  globals: GlobalOptions,
  invokedBy: InvokedBy,
  setup: SessionSetup = {},
): RuntimeSession {
  const pool = setup.pool ??
    new ToolPool([...getAllBaseTools(), ...(setup.extraBuiltins ?? [])], poolOptionsOf(globals));
  return createSession({
    pool,
    policy: toolOnlyPolicy,
    cwd: globals.cwd,
    stateDir: globals.stateDir,
    mode: permissionModeOf(globals.mode),
    invokedBy,
    ...(setup.agent ? { agent: setup.agent } : {}),
  });
}
