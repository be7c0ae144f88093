/**
 * Credential locations a sandboxed command cannot read by default. One source of truth: the default
 * policy's `secrets-home` rule (policy/default.json), whose `Read(...)` patterns are what the Read
 * tool asks a person about. Here they become the paths the sandbox masks; `sandbox.allowRead` lets
 * listed ones through, and `READABLE_IN_SANDBOX` names the few the sandbox leaves readable by default.
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

/**
 * Credential locations whose tool stops working altogether when the file reads as empty (as a masked
 * file does, or as unreadable on macOS): hiding them would break every build with that tool, offline
 * ones included. They still ask on the host; `sandbox.denyRead` hides them. Each reason was seen or is
 * the tool's documented behaviour on an empty file.
 */
export const READABLE_IN_SANDBOX: Readonly<Record<string, string>> = {
  "~/.gitconfig": "git commit needs user.name and user.email; aliases and settings shape every git command",
  "~/.config/git/config":
    "git commit needs user.name and user.email; aliases and settings shape every git command",
  "~/.m2/settings.xml":
    'mvn refuses to start on an empty settings.xml ("Non-readable settings ... input contained no data")',
  "~/.config/composer/auth.json": "composer stops on an auth.json that is not valid JSON, before any command",
  "~/.composer/auth.json": "composer stops on an auth.json that is not valid JSON, before any command",
  "~/.nuget/NuGet/NuGet.Config": "dotnet restore (and build, which restores) stops on an empty NuGet.Config",
};

/** The credential paths the sandbox hides: all but `READABLE_IN_SANDBOX` and the ones `allowRead` names. */
export function hiddenCredentialPaths(allowRead: readonly string[], home: string): string[] {
  const allowed = new Set(allowRead.map((p) => expand(p, home)));
  return CREDENTIAL_PATHS.filter((p) => !(p in READABLE_IN_SANDBOX) && !allowed.has(expand(p, home)));
}
