/**
 * Credential locations a sandboxed command cannot read by default. One source of truth: the default
 * policy's `secrets-home` rule (policy/default.json), whose `Read(...)` patterns are what the Read
 * tool asks a person about. Here they become the paths the sandbox masks; `sandbox.allowRead` lets
 * listed ones through.
 */
import defaultPolicy from "../../policy/default.json" with { type: "json" };
import { expandPath } from "./paths.ts";

const SECRETS_RULE = "secrets-home";

/** `Read(~/.ssh/**)` → `~/.ssh`, `Read(//etc/shadow)` → `/etc/shadow`. Throws on any other shape. */
export function credentialPathOf(pattern: string): string {
  const match = /^Read\((~\/[^*]+?|\/\/[^*]+?)(\/\*\*)?\)$/.exec(pattern);
  if (!match) {
    throw new Error(`${SECRETS_RULE}: ${pattern} is not Read(~/path), Read(~/dir/**) or Read(//path)`);
  }
  return match[1]!.startsWith("//") ? match[1]!.slice(1) : match[1]!;
}

function secretsRulePatterns(): string[] {
  const rule = defaultPolicy.rules.find((r) => r.id === SECRETS_RULE);
  if (!rule?.match) throw new Error(`policy/default.json has no ${SECRETS_RULE} rule with a match`);
  return [rule.match].flat();
}

/** `~/.ssh`, `~/.aws`, ..., `/etc/shadow`: hidden from every sandboxed command unless allowed. */
export const CREDENTIAL_PATHS: readonly string[] = secretsRulePatterns().map(credentialPathOf);

const expand = (path: string, home: string) => expandPath(path, { home, base: "/" });

/** Whether `path` (`~/.npmrc`, or `/home/u/.npmrc` as a shell expands it) is one of the list. */
export function isCredentialPath(path: string, home: string): boolean {
  return CREDENTIAL_PATHS.some((p) => expand(p, home) === expand(path, home));
}

/** The credential paths minus the ones `allowRead` names. */
export function hiddenCredentialPaths(allowRead: readonly string[], home: string): string[] {
  const allowed = new Set(allowRead.map((p) => expand(p, home)));
  return CREDENTIAL_PATHS.filter((p) => !allowed.has(expand(p, home)));
}
