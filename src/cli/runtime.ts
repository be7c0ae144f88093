/**
 * Opens a session from the global options: the pool, the policy, hooks and the state dir, wired
 * the same way for `run`, `serve`, `hook` and `agent`.
 */
import { getAllBaseTools } from "../pool/base-tools.ts";
import { ToolPool } from "../pool/tool-pool.ts";
import { toolOnlyPolicy } from "../exec/permission.ts";
import { createSession, type RuntimeSession } from "../exec/session.ts";
import type { InvokedBy } from "../tool/types.ts";
import { type GlobalOptions, permissionModeOf, poolModeOf } from "./globals.ts";

export function openSession(globals: GlobalOptions, invokedBy: InvokedBy): RuntimeSession {
  const pool = new ToolPool(getAllBaseTools(), {
    mode: poolModeOf(globals.mode),
    denyRules: globals.deny.map((rule) => ({ rule, source: "cli" })),
  });
  return createSession({
    pool,
    policy: toolOnlyPolicy,
    cwd: globals.cwd,
    stateDir: globals.stateDir,
    mode: permissionModeOf(globals.mode),
    invokedBy,
  });
}
