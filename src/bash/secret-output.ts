/**
 * Commands that only read, yet print secrets into the transcript. The command specs refuse what
 * their options and operands show (`printenv TOKEN`, `ps e`, `jq -n env`, awk's `ENVIRON`,
 * `echo "$NAME"` of a variable not on the printable list); this module adds what no spec sees:
 * a dump of every variable (`env`, `set`, `declare -p`, `export`) and a here-string of a
 * secret-looking variable. Secret-looking names are the sandbox's own list
 * (`DEFAULT_SECRET_ENV_PATTERNS`), so what the sandbox scrubs is what messages call a secret.
 *
 * ```ts
 * printedSecrets("env", [], []);    // ["env prints the whole environment, which holds secrets"]
 * secretVariable("GITHUB_TOKEN");   // "*TOKEN*"
 * secretMessage("GITHUB_TOKEN");    // "prints $GITHUB_TOKEN, whose name looks like a secret (*TOKEN*)"
 * ```
 */
import type { Redirect } from "./types.ts";
import { DEFAULT_SECRET_ENV_PATTERNS, globToRegExp } from "../sandbox/env.ts";

const SECRET_PATTERNS = DEFAULT_SECRET_ENV_PATTERNS.map((pattern) => ({
  pattern,
  regex: globToRegExp(pattern),
}));

/** The scrub pattern a variable name matches (`*TOKEN*`), or undefined for a name that looks harmless. */
export function secretVariable(name: string): string | undefined {
  return SECRET_PATTERNS.find((p) => p.regex.test(name))?.pattern;
}

/** Why printing `$name` is not read-only: a secret-looking name says so, any other may hold one. */
export function secretMessage(name: string): string {
  const pattern = secretVariable(name);
  return pattern
    ? `prints $${name}, whose name looks like a secret (${pattern})`
    : `prints $${name}, which may hold a secret`;
}

/** Builtins that print every variable (with values) when given no names. */
const DUMPS_WITHOUT_NAMES = new Set(["set", "declare", "typeset", "export", "readonly", "local"]);

/** Why this command prints secrets no spec sees (empty when it does not). */
export function printedSecrets(
  name: string,
  args: readonly string[],
  redirects: readonly Redirect[],
): string[] {
  const out: string[] = [];
  const operands = args.filter((a) => !a.startsWith("-") && !a.startsWith("+"));
  if (name === "env" && operands.every((a) => a.includes("="))) {
    out.push("env prints the whole environment, which holds secrets");
  }
  if (DUMPS_WITHOUT_NAMES.has(name) && operands.length === 0 && (name !== "set" || args.length === 0)) {
    out.push(`${name} without names prints every variable, secrets included`);
  }
  for (const r of redirects) {
    if (r.op !== "<<<") continue;
    for (const m of r.target.matchAll(/\$\{?([A-Za-z_]\w*)/g)) {
      if (secretVariable(m[1]!)) out.push(`${name} <<< ${secretMessage(m[1]!)}`);
    }
  }
  return out;
}
