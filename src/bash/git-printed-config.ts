/**
 * git commands that print values of git's configuration: `git config --list`, `git config KEY`,
 * `git remote -v`, `git remote get-url`, `git var -l`. The configuration is where credentials are
 * kept (`http.extraheader`, a remote URL or an `insteadOf` with `user:token@`), so whether such a
 * command prints one is looked up in the configuration when deciding (`policy/git-facts.ts`).
 */
import type { GitCall } from "./git.ts";

/** Which configuration a command prints: keys as lower-case patterns (`*` any part), and where from. */
export interface PrintedConfig {
  /** Index of the command among the analysis's commands. */
  index: number;
  /** `*` for every key. */
  keys: string[];
  /** `--file F` or `--blob B` when the command reads one place only; empty for git's usual files. */
  scope: string[];
}

/** Keys `git remote` prints from: the URLs, as `insteadOf` rewrites them. */
const REMOTE_URLS = ["remote.*.url", "remote.*.pushurl", "url.*.insteadof", "url.*.pushinsteadof"];
const ALL = ["*"];

/** What configuration `git SUBCOMMAND ARGS` prints, or undefined when it prints none. */
export function printedConfig(call: GitCall, index: number): PrintedConfig | undefined {
  const sub = call.subcommand;
  const args = call.args;
  const found = (keys: string[], scope: string[] = []) => ({ index, keys, scope });
  if (sub === "config") return configRead(args, index);
  if (sub === "var") return args.some((a) => a === "-l") ? found(ALL) : undefined;
  if (sub === "remote") {
    // `git remote` lists names only; `-v`, `get-url` and `show` print URLs (any option counts).
    const first = args.find((a) => !a.startsWith("-"));
    if (first === undefined) return args.length === 0 ? undefined : found(REMOTE_URLS);
    return first === "get-url" || first === "show" || args.some((a) => a.startsWith("-"))
      ? found(REMOTE_URLS)
      : undefined;
  }
  if (sub === "ls-remote" && args.some((a) => a === "--get-url")) return found(REMOTE_URLS);
  return undefined;
}

/** Options of `git config` that pick the file read, and take a value. */
const SCOPE_WITH_VALUE = new Set(["-f", "--file", "--blob"]);

/** Options that pick among git's usual files or shape the output: they leave the form as it is. */
const MODIFIERS =
  /^(?:--(?:global|system|local|worktree|includes|no-includes|show-origin|show-scope|null|name-only)|-z)$/;

/** `git config` forms that change the configuration and print none of it. */
const CONFIG_WRITES = new Set([
  "--add",
  "--replace-all",
  "--unset",
  "--unset-all",
  "--rename-section",
  "--remove-section",
  "-e",
  "--edit",
  "set",
  "unset",
  "rename-section",
  "remove-section",
  "edit",
]);

/**
 * `git config` prints one key for `KEY`, `--get KEY`, `--get-all KEY` and `get KEY`; every other read
 * form (`--list`, `--get-regexp`, `list`, an option it does not know here) counts as printing all.
 * `KEY VALUE` and the write options print nothing (the spec already keeps them from being read-only).
 */
function configRead(args: readonly string[], index: number): PrintedConfig | undefined {
  const scope: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.indexOf("=");
    const name = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    if (SCOPE_WITH_VALUE.has(name)) {
      const value = name === a ? args[++i] : a.slice(eq + 1);
      if (value !== undefined) scope.push(name === "-f" ? "--file" : name, value);
      continue;
    }
    if (/^-f./.test(a)) {
      scope.push("--file", a.slice(2));
      continue;
    }
    if (!MODIFIERS.test(a)) rest.push(a);
  }
  if (rest.some((a) => CONFIG_WRITES.has(a))) return undefined;
  if (rest.length === 2 && rest.every((a) => !a.startsWith("-")) && !["get", "list"].includes(rest[0]!)) {
    return undefined;
  }
  const words = rest[0] === "get" || rest[0] === "--get" || rest[0] === "--get-all" ? rest.slice(1) : rest;
  const one = words.length === 1 && /^[\w-]+(?:\..+)?\.[\w-]+$/.test(words[0]!) ? words[0]! : undefined;
  return { index, keys: one === undefined ? ALL : [one.toLowerCase()], scope };
}
