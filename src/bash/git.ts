/**
 * git's global options, resolved before the subcommand (`git -C /elsewhere push` is a push), for
 * the destructive-command warnings. What the words mean for read-only is in `specs/git.ts`.
 */
import type { Access } from "./paths.ts";

export interface GitCall {
  /** Global options as written (`-C`, `dir`, `-c`, `k=v`, `--no-pager`). */
  globals: string[];
  subcommand: string | undefined;
  args: string[];
  /** Directories or repositories the global options point git at. */
  locations: Access[];
  /** Global options that can make git run other programs. */
  risky: string[];
  /** Where git starts looking for its repository: the `-C` directories joined in order, `.` without. */
  start: string;
  /** The repository named by `--git-dir`, when given. */
  gitDir?: string;
}

const GLOBAL_WITH_VALUE = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--exec-path",
  "--config-env",
  "--super-prefix",
  "--list-cmds",
  "--attr-source",
]);
const GLOBAL_RISKY = /^(?:-c|--config-env|--exec-path)(?:=|$)/;
/** Global options that take no value and run nothing. */
const GLOBAL_PLAIN = new Set([
  "-p",
  "--paginate",
  "-P",
  "--no-pager",
  "--bare",
  "--no-replace-objects",
  "--no-lazy-fetch",
  "--no-optional-locks",
  "--no-advice",
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "--html-path",
  "--man-path",
  "--info-path",
  "--version",
  "--help",
  "-v",
  "-h",
]);

/** Splits `git [global options] subcommand args`. `args` are the words after `git`. */
export function resolveGit(args: string[]): GitCall {
  const call: GitCall = {
    globals: [],
    subcommand: undefined,
    args: [],
    locations: [],
    risky: [],
    start: ".",
  };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("-")) break;
    const eq = a.indexOf("=");
    // `-ccore.pager=x` and `-C/dir` are `-c core.pager=x` and `-C /dir`.
    const joined = /^-[cC]./.test(a);
    const name = joined ? a.slice(0, 2) : a.startsWith("--") && eq !== -1 ? a.slice(0, eq) : a;
    let value: string | undefined = joined
      ? a.slice(2)
      : eq !== -1 && a.startsWith("--")
      ? a.slice(eq + 1)
      : undefined;
    if (!GLOBAL_WITH_VALUE.has(name) && !GLOBAL_PLAIN.has(name)) call.risky.push(name);
    call.globals.push(a);
    if (value === undefined && GLOBAL_WITH_VALUE.has(name) && !(name === "--exec-path")) {
      value = args[++i];
      if (value !== undefined) call.globals.push(value);
    }
    if (GLOBAL_RISKY.test(name) && !(name === "--exec-path" && value === undefined)) call.risky.push(name);
    if ((name === "-C" || name === "--git-dir" || name === "--work-tree") && value !== undefined) {
      call.locations.push({ path: value, access: "read" });
    }
    if (name === "-C" && value !== undefined && value !== "") {
      // `git -C a -C b` is `cd a && cd b`: a relative `-C` goes on from the one before.
      call.start = call.start === "." || /^[/~]/.test(value) ? value : `${call.start}/${value}`;
    }
    if (name === "--git-dir" && value !== undefined) call.gitDir = value;
  }
  call.subcommand = args[i];
  call.args = args.slice(i + 1);
  return call;
}

/**
 * git plumbing that does what a porcelain command does, for deny and ask rules: `Bash(git push:*)`
 * holds for `git send-pack` and `git http-push` (verified: send-pack updates the remote's branch),
 * and `git subtree push` runs `git push`. Remote helpers speak both ways on their input.
 */
const PORCELAIN_OF: Readonly<Record<string, readonly string[]>> = {
  "send-pack": ["push"],
  "http-push": ["push"],
  "fetch-pack": ["fetch"],
  "remote-http": ["push", "fetch"],
  "remote-https": ["push", "fetch"],
  "remote-ftp": ["push", "fetch"],
  "remote-ftps": ["push", "fetch"],
  "remote-ext": ["push", "fetch"],
  "remote-fd": ["push", "fetch"],
};

/** The porcelain spellings of a git rule text (`git send-pack o main` is also `git push o main`). */
export function gitCommandTexts(words: readonly string[]): string[] {
  if (words[0] !== "git" || words[1] === undefined) return [];
  const sub = words[1].toLowerCase();
  const rest = words.slice(2);
  if (sub === "subtree" && rest[0] === "push") return [["git", "push", ...rest.slice(1)].join(" ")];
  return (PORCELAIN_OF[sub] ?? []).map((porcelain) => ["git", porcelain, ...rest].join(" "));
}
