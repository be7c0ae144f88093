/** A real session (pipeline + policy engine) over the given tools, isolated in a temp dir. */
import { join } from "node:path";
import { rulesPolicy } from "../../src/exec/rules-policy.ts";
import { createSession, type RuntimeSession } from "../../src/exec/session.ts";
import { loadPolicy } from "../../src/policy/load.ts";
import { ToolPool } from "../../src/pool/tool-pool.ts";
import type { AnyTool, InvokedBy } from "../../src/tool/types.ts";
import { tempDir } from "./session-context.ts";

export interface CliRules {
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

/** Over a list of tools, or over a pool that something else (an MCP manager) feeds. */
export function policySession(
  tools: AnyTool[] | ToolPool,
  rules: CliRules = {},
  invokedBy: InvokedBy = "mcp-client",
): RuntimeSession {
  const root = tempDir();
  const cwd = join(root, "ws");
  const stateDir = join(root, "state");
  const env = {
    HOME: root,
    XDG_CONFIG_HOME: join(root, ".config"),
    TOOLRT_MANAGED_POLICY: join(root, "managed"),
  };
  const loaded = loadPolicy({ cwd, stateDir, cliRules: rules, env });
  if (loaded.errors.length > 0) throw new Error(loaded.errors.map((e) => e.message).join("\n"));
  const denyRules = loaded.policy.blanketDenies();
  const pool = tools instanceof ToolPool ? tools : new ToolPool(tools, { mode: "default", denyRules });
  if (tools instanceof ToolPool) pool.setOptions({ denyRules });
  return createSession({
    pool,
    policy: rulesPolicy(loaded.policy),
    cwd,
    stateDir,
    mode: "default",
    invokedBy,
  });
}
