/**
 * git: global options are resolved before the subcommand is matched, so `git -C /elsewhere push`
 * is a push and `git -c core.pager=... log` is not a plain log.
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
  const call: GitCall = { globals: [], subcommand: undefined, args: [], locations: [], risky: [] };
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
  }
  call.subcommand = args[i];
  call.args = args.slice(i + 1);
  return call;
}

/** Subcommands that only read, with a test on their arguments where some forms write. */
const READ_ONLY: Record<string, (args: string[]) => boolean> = {
  status: () => true,
  log: () => true,
  show: () => true,
  diff: () => true,
  blame: () => true,
  annotate: () => true,
  shortlog: () => true,
  describe: () => true,
  "rev-parse": () => true,
  "rev-list": () => true,
  "ls-files": () => true,
  "ls-tree": () => true,
  "ls-remote": () => true,
  "cat-file": () => true,
  "merge-base": () => true,
  "name-rev": () => true,
  "show-ref": () => true,
  "for-each-ref": () => true,
  "count-objects": () => true,
  "check-ignore": () => true,
  "check-attr": () => true,
  "diff-tree": () => true,
  "diff-files": () => true,
  "diff-index": () => true,
  whatchanged: () => true,
  grep: () => true,
  help: () => true,
  version: () => true,
  var: () => true,
  branch: (args) =>
    args.every((a) =>
      /^-(?:a|r|v|vv|l|-list|-all|-remotes|-verbose|-show-current|-merged|-no-merged|-contains|-sort=.*|-format=.*|-no-color|-color)$/
        .test(a)
    ),
  tag: (args) => args.length === 0 || args.some((a) => a === "-l" || a === "--list"),
  remote: (args) =>
    args.length === 0 || args.every((a) => a === "-v" || a === "--verbose") ||
    ["show", "get-url"].includes(args[0]!),
  stash: (args) => ["list", "show"].includes(args[0] ?? ""),
  worktree: (args) => args[0] === "list",
  reflog: (args) => args.length === 0 || args[0] === "show" || args[0]?.startsWith("-") === true,
  config: (args) =>
    args.some((a) => /^(?:--get|--get-all|--get-regexp|-l|--list)$/.test(a)) || args[0] === "get" ||
    args[0] === "list",
};

/** Options of any subcommand that run another program. */
const RISKY_OPTIONS =
  /^(?:--upload-pack|--receive-pack|--exec|--ext-diff|--extcmd|--tool|--textconv|--open-files-in-pager|--sendmail-cmd|--smtp-server)(?:=|$)/;
/** Short or subcommand-specific options that run another program or set config that does. */
const SUBCOMMAND_RISKY: Record<string, RegExp> = {
  rebase: /^-x/,
  difftool: /^-x/,
  grep: /^-O/,
  clone: /^(?:-u|-c|--config|--template)(?:=|$)|^-[uc]./,
  init: /^--template(?:=|$)/,
};
const RUNS_COMMANDS = new Set(["filter-branch"]);
/** Config keys whose value git runs as a command (or that load other config). */
const COMMAND_CONFIG =
  /^(?:core\.(?:pager|sshcommand|editor|fsmonitor|hookspath|askpass|gitproxy)|sequence\.editor|diff\.external|diff\..*\.(?:command|textconv)|merge\..*\.driver|filter\..*|credential\..*helper|credential\.helper|gpg\..*program|gpg\.program|include\.path|includeif\..*|alias\..*|pager\..*|interactive\.difffilter|uploadpack\.packobjectshook|remote\..*\.(?:uploadpack|receivepack|vcs)|protocol\..*|http\..*proxy|url\..*)$/i;

export interface GitVerdict {
  readOnly: boolean;
  noAutoAllow: string[];
  /** The words rules match: `git` + subcommand + its arguments, global options removed. */
  ruleWords: string[];
}

export function judgeGit(args: string[]): GitVerdict {
  const call = resolveGit(args);
  const sub = call.subcommand;
  const noAutoAllow = call.risky.map((name) => `git ${name} can set options that run other programs`);
  const readOnlyTest = sub ? READ_ONLY[sub] : undefined;
  let readOnly = readOnlyTest !== undefined && readOnlyTest(call.args) && call.risky.length === 0;
  const subRisky = sub ? SUBCOMMAND_RISKY[sub] : undefined;
  for (const a of call.args) {
    if (RISKY_OPTIONS.test(a) || subRisky?.test(a)) {
      noAutoAllow.push(`git ${sub} ${a.split("=")[0]} runs another program`);
      readOnly = false;
    }
    if (/^(?:ext|fd)::/.test(a)) {
      noAutoAllow.push(`git's ${a.slice(0, a.indexOf("::") + 2)} transport runs a command`);
      readOnly = false;
    }
    if (/^--output(?:=|$)/.test(a)) readOnly = false;
  }
  if (sub && RUNS_COMMANDS.has(sub)) noAutoAllow.push(`git ${sub} runs other commands`);
  if (sub === "submodule" && call.args.includes("foreach")) {
    noAutoAllow.push("git submodule foreach runs commands");
  }
  if (sub === "bisect" && call.args[0] === "run") noAutoAllow.push("git bisect run runs commands");
  if (sub === "config" && !readOnly) {
    // Any word may be the key (`-f FILE` and other options come first): check them all.
    const key = call.args.find((a) => COMMAND_CONFIG.test(a) || a.startsWith("!"));
    if (key) noAutoAllow.push(`git config ${key} sets a command git will run`);
  }
  return {
    readOnly,
    noAutoAllow,
    ruleWords: sub === undefined ? ["git", ...args] : ["git", sub, ...call.args],
  };
}

/** Files git reads or writes because of its own options (`-C`, `--output`). */
export function gitPaths(args: string[]): Access[] {
  const call = resolveGit(args);
  const out = [...call.locations];
  call.args.forEach((a, i) => {
    if (a.startsWith("--output=")) out.push({ path: a.slice(9), access: "write" });
    else if (a === "--output" && call.args[i + 1]) out.push({ path: call.args[i + 1]!, access: "write" });
  });
  return out;
}
