/**
 * Session grants: "always allow" answers given while running, kept per workspace in the state dir
 * and loaded as the `session` source next time: rules, and exceptions to the sandbox (a host it
 * may reach, a path it may write) that a person granted when the sandbox blocked them.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Policy } from "./policy.ts";
import { compileRuleList } from "./rule-list.ts";
import { parseRuleString } from "./rule-string.ts";
import { writeJsonAtomically } from "./json-file.ts";
import type { Effect } from "./types.ts";
import { grantsFile } from "./policy-files.ts";

export { grantsFile };

export interface SessionGrant {
  rule: string;
  effect: Effect;
  /** ISO time the grant was made. */
  at: string;
}

/** Sandbox exceptions granted "always": added to the policy's `sandbox` lists as the session source. */
export interface SandboxGrants {
  allowNet: string[];
  allowWrite: string[];
}

interface GrantsData {
  grants?: SessionGrant[];
  sandbox?: Partial<SandboxGrants>;
}

function readData(stateDir: string, cwd: string): GrantsData {
  let text: string;
  try {
    text = readFileSync(grantsFile(stateDir, cwd), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  return JSON.parse(text) as GrantsData;
}

function writeData(stateDir: string, cwd: string, data: GrantsData): void {
  writeJsonAtomically(grantsFile(stateDir, cwd), { workspace: resolve(cwd), ...data });
}

export function readGrants(stateDir: string, cwd: string): SessionGrant[] {
  return readData(stateDir, cwd).grants ?? [];
}

export function readSandboxGrants(stateDir: string, cwd: string): SandboxGrants {
  const sandbox = readData(stateDir, cwd).sandbox ?? {};
  return { allowNet: sandbox.allowNet ?? [], allowWrite: sandbox.allowWrite ?? [] };
}

/** Records a sandbox exception for the workspace (a host for `allowNet`, an absolute path for `allowWrite`). */
export function addSandboxGrant(
  stateDir: string,
  cwd: string,
  list: keyof SandboxGrants,
  value: string,
): void {
  const data = readData(stateDir, cwd);
  const sandbox = { ...readSandboxGrants(stateDir, cwd) };
  sandbox[list] = [...new Set([...sandbox[list], value])];
  writeData(stateDir, cwd, { ...data, sandbox });
}

/** Records a grant (validating the rule first) and returns every grant of the workspace. */
export function addGrant(
  stateDir: string,
  cwd: string,
  rule: string,
  effect: Effect = "allow",
): SessionGrant[] {
  parseRuleString(rule);
  const data = readData(stateDir, cwd);
  const grants = (data.grants ?? []).filter((g) => g.rule !== rule || g.effect !== effect);
  grants.push({ rule, effect, at: new Date().toISOString() });
  writeData(stateDir, cwd, { ...data, grants });
  return grants;
}

/**
 * An "always allow" answer: persists the grant for the workspace and returns the policy with it,
 * so the next call sees it without reloading. The rule is checked first (RuleSyntaxError).
 */
export function grantForSession(
  policy: Policy,
  stateDir: string,
  cwd: string,
  rule: string,
  effect: Effect = "allow",
): Policy {
  const grants = addGrant(stateDir, cwd, rule, effect);
  const anchors = { cwd: resolve(cwd), home: policy.state.home, sourceBase: resolve(cwd) };
  const context = { source: "session" as const, file: grantsFile(stateDir, cwd), anchors, trusted: true };
  const { rules } = compileRuleList([{ rule, effect, id: `session-${grants.length}` }], context);
  return policy.withRules(rules);
}
