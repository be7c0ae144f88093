/**
 * Session grants: "always allow" answers given while running, kept per workspace in the state dir
 * and loaded as the `session` source next time.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Policy } from "./policy.ts";
import { compileRuleList } from "./rule-list.ts";
import { parseRuleString } from "./rule-string.ts";
import { writeJsonAtomically } from "./json-file.ts";
import type { Effect } from "./types.ts";

export interface SessionGrant {
  rule: string;
  effect: Effect;
  /** ISO time the grant was made. */
  at: string;
}

export function grantsFile(stateDir: string, cwd: string): string {
  const key = createHash("sha256").update(resolve(cwd)).digest("hex").slice(0, 16);
  return join(stateDir, "grants", `${key}.json`);
}

export function readGrants(stateDir: string, cwd: string): SessionGrant[] {
  let text: string;
  try {
    text = readFileSync(grantsFile(stateDir, cwd), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const data = JSON.parse(text) as { grants?: SessionGrant[] };
  return data.grants ?? [];
}

/** Records a grant (validating the rule first) and returns every grant of the workspace. */
export function addGrant(
  stateDir: string,
  cwd: string,
  rule: string,
  effect: Effect = "allow",
): SessionGrant[] {
  parseRuleString(rule);
  const grants = readGrants(stateDir, cwd).filter((g) => g.rule !== rule || g.effect !== effect);
  grants.push({ rule, effect, at: new Date().toISOString() });
  writeJsonAtomically(grantsFile(stateDir, cwd), { workspace: resolve(cwd), grants });
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
