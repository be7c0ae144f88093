/**
 * Credentials kept in git's configuration, found when deciding whether a command that prints it
 * (`git remote -v`, `git config --list`) would print one. Read with `git config --list`, which reads
 * the same files (system, global, XDG, the repository's, their includes) and runs no program.
 */
import { spawnSync } from "node:child_process";

export interface ConfigEntry {
  key: string;
  value: string;
  /** Where git read it (`file:/home/u/.gitconfig`). */
  origin: string;
}

/**
 * `git config --show-origin --list -z` in `dir` (or of the repository `dir` with `gitDir`), with
 * `home` as the home git reads `~/.gitconfig` from.
 */
export function gitConfigList(
  dir: string,
  gitDir: boolean,
  scope: readonly string[],
  home?: string,
): ConfigEntry[] {
  const where = gitDir ? [`--git-dir=${dir}`] : ["-C", dir];
  const run = spawnSync("git", [...where, "config", ...scope, "--show-origin", "--list", "-z"], {
    encoding: "utf8",
    ...(home === undefined ? {} : { env: { ...process.env, HOME: home } }),
    timeout: 5000,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(run.stderr.trim() || `git config exited with ${run.status}`);
  const fields = run.stdout.split("\0");
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const line = fields[i + 1]!;
    const newline = line.indexOf("\n");
    entries.push({
      origin: fields[i]!,
      key: newline < 0 ? line : line.slice(0, newline),
      value: newline < 0 ? "" : line.slice(newline + 1),
    });
  }
  return entries;
}

/** Variable names that hold a secret by what they are (`http.extraheader`, `github.token`). */
const SECRET_NAME = /(?:extraheader|token|password|passwd|secret|smtppass|apikey|api-key)$/i;
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*):\/\/([^/\s@]+)@/gi;
/** A user name that is a token (GitHub's and GitLab's prefixes, or long, mixed letters and digits). */
const TOKEN_USER = /^(?:gh[opsur]_|github_pat_|glpat-)|^(?=.*\d)[\w.~%-]{20,}$/;

/** Whether text holds a URL with a password (`user:pw@`) or a token as the user (`ghp_…@`). */
export function credentialUrl(text: string): boolean {
  for (const [, , userinfo] of text.matchAll(URL_USERINFO)) {
    if (userinfo!.includes(":") || TOKEN_USER.test(userinfo!)) return true;
  }
  return false;
}

/**
 * The first entry among `keys` (lower-case patterns, `*` any part) that holds a credential, named
 * with where git read it (never its value); undefined when none does.
 */
export function credentialIn(entries: readonly ConfigEntry[], keys: readonly string[]): string | undefined {
  const patterns = keys.map((k) => new RegExp(`^${k.split("*").map(escape).join(".*")}$`, "s"));
  for (const e of entries) {
    const key = e.key.toLowerCase();
    if (!patterns.some((p) => p.test(key))) continue;
    const name = key.slice(key.lastIndexOf(".") + 1);
    if ((SECRET_NAME.test(name) && e.value !== "") || credentialUrl(e.key) || credentialUrl(e.value)) {
      return `${keyShown(e.key)} from ${e.origin}`;
    }
  }
  return undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A key as shown in a reason: the URL of `url.<URL>.insteadof` loses its user part. */
function keyShown(key: string): string {
  return key.replace(URL_USERINFO, "$1://…@");
}
