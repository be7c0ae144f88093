/**
 * Environment scrubbing: the sandboxed command inherits the caller's environment minus every variable
 * whose name looks like it carries a secret. Patterns are shell-style globs (`*` and `?`), matched
 * against the whole name, case-insensitively.
 */

/** Names that usually hold credentials; `--unset-env` and the settings' `unsetEnv` add to these. */
export const DEFAULT_SECRET_ENV_PATTERNS: readonly string[] = [
  "*TOKEN*",
  "*SECRET*",
  "*PASSWORD*",
  "*PASSWD*",
  "*PASSPHRASE*",
  "*CREDENTIAL*",
  "*_KEY",
  "*_KEY_ID",
  "*API_KEY*",
  "*APIKEY*",
  "*ACCESS_KEY*",
  "*PRIVATE_KEY*",
  "*_AUTH",
  "*_PAT",
  "*COOKIE*",
  "*_DSN",
  "DATABASE_URL",
  "SSH_AUTH_SOCK",
  "GPG_AGENT_INFO",
];

/** Turns a shell-style glob into an anchored, case-insensitive regular expression. */
export function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "i");
}

export interface ScrubbedEnv {
  env: Record<string, string>;
  /** Names removed, sorted, for the audit record (never the values). */
  removed: string[];
}

/** Copies `env` without the variables whose names match any of `patterns`. */
export function scrubEnv(env: Record<string, string | undefined>, patterns: readonly string[]): ScrubbedEnv {
  // One alternation instead of one expression per pattern: compiled once, one test per name.
  const matcher = patterns.length === 0
    ? null
    : new RegExp(patterns.map((p) => globToRegExp(p).source).join("|"), "i");
  const kept: Record<string, string> = {};
  const removed: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (matcher?.test(name)) removed.push(name);
    else kept[name] = value;
  }
  return { env: kept, removed: removed.sort() };
}
