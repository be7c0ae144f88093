/**
 * Argument-aware judgement of one command: is it read-only with these arguments, and which
 * arguments make it run other code so that no prefix rule for its leading word may cover it.
 */
import { awkProgramRisk, readAwk } from "./awk.ts";
import { sshRunsProgram } from "./ssh.ts";
import type { Word } from "./command.ts";
import { gitPaths, judgeGit } from "./git.ts";
import { hasOption, parseArgs } from "./options.ts";
import { type Access, extractPaths } from "./paths.ts";
import { parseSed, validateSed } from "./sed.ts";
import { basename } from "./wrappers.ts";

export interface Verdict {
  readOnly: boolean;
  noAutoAllow: string[];
  /** Words permission rules are matched against. */
  ruleWords: string[];
  paths: Access[];
}

/** Read-only whatever their arguments (writes still show up as write paths). */
const ALWAYS_READ_ONLY = new Set(
  ("ls cat head tail wc stat file du tree pwd echo true false : which whereis type realpath " +
    "readlink basename dirname diff cmp comm cut tr uniq nl od strings md5sum sha1sum sha256sum " +
    "sha512sum cksum grep egrep fgrep column fold rev tac expand unexpand paste join fmt seq whoami " +
    "id uname ps df free uptime groups nproc base64 xxd test [ cd pushd popd less more jq sort " +
    "printf date man tldr hostname locale getconf zipinfo").split(" "),
);

/** `tool --version` and `tool --help` only print. */
const VERSION_TOOLS = new Set(
  ("node npm npx pnpm yarn bun deno python python3 pip pip3 uv cargo rustc rustup go java javac " +
    "tsc make cmake gcc clang docker kubectl gh terraform ruby perl php git rg fd jq curl wget").split(" "),
);

/** Interpreters and the flags that hand them inline code. */
const INLINE_CODE: Record<string, RegExp> = {
  python: /^-[a-zA-Z]*c/,
  node: /^(?:-[a-zA-Z]*[ep]|--eval|--print)(?:=|$)/,
  bun: /^(?:-[ep]|--eval|--print)(?:=|$)/,
  deno: /^eval$/,
  perl: /^-[a-zA-Z]*[eE]/,
  ruby: /^-[a-zA-Z]*e/,
  php: /^-[a-zA-Z]*r/,
  lua: /^-[a-zA-Z]*e/,
  Rscript: /^-e$/,
  osascript: /^-e$/,
  pwsh: /^-(?:c|command|Command|EncodedCommand|e|ec)$/,
  tclsh: /^-c$/,
  jshell: /^-c$/,
  R: /^(?:-e|--eval)(?:=|$)/,
  julia: /^(?:-[eE]|--eval|--print)(?:=|$)/,
  elixir: /^(?:-e|--eval)(?:=|$)/,
  erl: /^-eval$/,
  guile: /^-[ce]$/,
  racket: /^(?:-[eifr]|--eval|--load|--require)(?:=|$)/,
  sbcl: /^--(?:eval|load|script)(?:=|$)/,
  emacs: /^(?:--eval|-l|--load|-f|--funcall|--script|-x)(?:=|$)/,
  make: /^(?:-E|--eval)(?:=|$)|^-E./,
  gdb: /^(?:-ex|-iex|--eval-command|-x|--command|-ix|--init-command)(?:=|$)/,
  expect: /^-c$/,
  groovy: /^-e$/,
};

/** Interpreters that read their program from standard input when given none (or `-`). */
export const INTERPRETERS = new Set([
  "python",
  "perl",
  "ruby",
  "node",
  "php",
  "lua",
  "bun",
  "deno",
  "pwsh",
  "tclsh",
  "wish",
  "jshell",
  "R",
  "julia",
  "groovy",
  "irb",
  "expect",
]);

const NC_EXEC = /^-[a-zA-Z]*[ec]$|^--(?:exec|sh-exec|lua-exec)(?:=|$)/;

/**
 * Options that make a command run another program (`zip -TT cmd`, `ssh -o ProxyCommand=cmd`),
 * so its leading word's prefix rule does not cover it.
 */
const RUNS_PROGRAM: Record<string, RegExp[]> = {
  zip: [/^(?:-TT|--unzip-command)(?:=|$)/],
  cpio: [/^--rsh-command(?:=|$)/],
  nc: [NC_EXEC],
  ncat: [NC_EXEC],
  netcat: [NC_EXEC],
  socat: [/(?:^|[,!:])(?:exec|system):/i],
  nano: [/^(?:-s|--speller)(?:=|$)/],
  sqlite3: [/^-cmd$|^\.(?:shell|system|once|output|load|read|import)\b/],
  hash: [/^-[a-zA-Z]*p/],
  enable: [/^-[a-zA-Z]*[fn]/],
  complete: [/^-[a-zA-Z]*C/],
  compgen: [/^-[a-zA-Z]*C/],
  bind: [/^-[a-zA-Z]*x/],
};

const EDITORS = new Set(["vi", "vim", "nvim", "view", "ex", "gvim", "evim", "vimdiff", "rvim"]);
/** Commands where a file name starting with `-` (from an unquoted glob) becomes a dangerous option. */
const GLOB_SENSITIVE = new Set(
  ("tar find sort sed git rsync chown chmod chgrp zip cp mv rm scp xargs awk").split(" "),
);
const PACKAGE_RUNNERS = new Set(["bunx", "uvx"]);

export function interpreterName(name: string): string {
  if (/^(?:python|pypy)[\d.]*$/.test(name)) return "python";
  if (name === "nodejs") return "node";
  if (name === "powershell") return "pwsh";
  if (name === "luajit" || /^lua[\d.]+$/.test(name)) return "lua";
  return name;
}

/**
 * A shell or interpreter that takes its program from standard input: no inline code, and `-`,
 * `-s` or no script operand (`python3 -`, `sh -s`, `ruby` with a here-string).
 */
export function programFromStdin(name: string, args: string[], shell: boolean): boolean {
  if (!shell && !INTERPRETERS.has(interpreterName(name))) return false;
  if (args.some((a) => /^-[a-zA-Z]*[ce]$|^--eval$/.test(a))) return false;
  if (args.includes("-s") || args.includes("-")) return true;
  const operand = args.find((a) => !a.startsWith("-"));
  return operand === undefined || operand === "/dev/stdin";
}

/** Judges one command given its effective words (wrappers already removed). */
export function judge(words: Word[]): Verdict {
  const texts = words.map((w) => w.text);
  const name = basename(texts[0] ?? "");
  const args = texts.slice(1);
  const verdict: Verdict = {
    readOnly: ALWAYS_READ_ONLY.has(name) || readOnlySubcommand(name, args),
    noAutoAllow: [],
    ruleWords: [name, ...args],
    paths: extractPaths(name, args),
  };
  if (
    args.length === 1 && VERSION_TOOLS.has(name) && /^(?:--version|-V|--help|-h|version|help)$/.test(args[0]!)
  ) {
    verdict.readOnly = true;
  }
  SPECIFIC[name]?.(args, verdict);
  const interpreter = interpreterName(name);
  const inline = INLINE_CODE[interpreter];
  // Inline-code flags come before a script or subcommand (`bun -e x`, not `bun install -p`).
  const script = args.findIndex((a) => !a.startsWith("-") && (/[./]/.test(a) || name === "bun"));
  const beforeOperand = script === -1 ? args : args.slice(0, script);
  if (inline && beforeOperand.some((a) => inline.test(a))) {
    verdict.noAutoAllow.push(`${name} runs inline code given as an argument`);
  }
  const runs = args.find((a) => RUNS_PROGRAM[name]?.some((option) => option.test(a)));
  if (runs) verdict.noAutoAllow.push(`${name} ${runs.split("=")[0]} runs another program`);
  if (EDITORS.has(name) && args.some((a) => /^(?:\+|-c$|--cmd$|-[a-zA-Z]*[sS]$|-u$)/.test(a))) {
    verdict.noAutoAllow.push(`${name} +cmd / -c runs editor commands, which can run shell commands`);
  }
  if (PACKAGE_RUNNERS.has(name)) {
    verdict.noAutoAllow.push(`${name} runs a package that may be downloaded first`);
  }
  const dashDash = args.indexOf("--");
  if (
    GLOB_SENSITIVE.has(name) && words.slice(1).some((w, i) => w.glob && (dashDash === -1 || i < dashDash))
  ) {
    verdict.noAutoAllow.push(
      `an unquoted glob in ${name}'s arguments could expand to a file name that acts as an option`,
    );
  }
  if (verdict.paths.some((p) => p.access === "write")) verdict.readOnly = false;
  if (verdict.noAutoAllow.length > 0) verdict.readOnly = false;
  return verdict;
}

type Specific = (args: string[], verdict: Verdict) => void;

const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
const FIND_WRITE = new Set(["-delete", "-fls", "-fprint", "-fprint0", "-fprintf"]);

const SPECIFIC: Record<string, Specific> = {
  find(args, v) {
    const exec = args.find((a) => FIND_EXEC.has(a));
    const writes = args.find((a) => FIND_WRITE.has(a));
    for (const flag of [exec, writes]) {
      if (flag) {
        v.noAutoAllow.push(
          `find with '${flag}' executes commands or modifies files — cannot be auto-allowed by a Bash(find:*) prefix rule`,
        );
      }
    }
    v.readOnly = !exec && !writes;
  },
  rg(args, v) {
    const bad = args.find((a) =>
      /^--(?:pre|hostname-bin|search-zip)(?:=|$)/.test(a) || /^-[a-zA-Z]*z/.test(a)
    );
    if (bad) v.noAutoAllow.push(`rg ${bad.split("=")[0]} runs other programs on the files it searches`);
    v.readOnly = bad === undefined;
  },
  sed(args, v) {
    const sed = parseSed(args);
    const verdict = validateSed(sed);
    if (verdict.danger) v.noAutoAllow.push(verdict.danger);
    v.readOnly = verdict.valid && !sed.inPlace;
  },
  awk: awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  git(args, v) {
    const git = judgeGit(args);
    v.readOnly = git.readOnly;
    v.noAutoAllow.push(...git.noAutoAllow);
    v.ruleWords = git.ruleWords;
    v.paths.push(...gitPaths(args));
  },
  tar(args, v) {
    const bad = args.find((a) =>
      /^--(?:to-command|checkpoint-action|use-compress-program|info-script|new-volume-script|rsh-command|rmt-command)(?:=|$)/
        .test(a) || /^-[A-Za-z]*[IF]$/.test(a)
    );
    if (bad) v.noAutoAllow.push(`tar ${bad.split("=")[0]} runs another program`);
    const first = args[0] ?? "";
    v.readOnly = !bad && /^-?[A-Za-z]*t/.test(first) && !/[cxruA]/.test(first.replace(/^-/, ""));
  },
  unzip(args, v) {
    v.readOnly = args.some((a) => /^-[a-zA-Z]*[lvtZ]/.test(a));
  },
  sort(args, v) {
    if (args.some((a) => a.startsWith("--compress-program"))) {
      v.noAutoAllow.push("sort --compress-program runs another program");
    }
  },
  date(args, v) {
    v.readOnly = !args.some((a) => /^(?:-s|--set)/.test(a));
  },
  printf(args, v) {
    v.readOnly = args[0] !== "-v";
  },
  hostname(args, v) {
    v.readOnly = args.every((a) => a.startsWith("-") && !/^-(?:F|-file)/.test(a));
  },
  less: pagerEscapes,
  more: pagerEscapes,
  man(args, v) {
    const bad = args.find((a) => /^(?:-P|-H|--pager|--html|--browser)/.test(a));
    if (bad) v.noAutoAllow.push(`man ${bad} runs another program`);
    v.readOnly = !bad;
  },
  jq(args, v) {
    v.readOnly = !args.some((a) => /^(?:-f|--from-file|-L|--library-path)/.test(a));
  },
  npm: packageManager,
  pnpm: packageManager,
  yarn: packageManager,
  bun: packageManager,
  npx(args, v) {
    if (args.some((a) => /^(?:-y|--yes|-p|--package)(?:=|$)/.test(a) || isRemoteSpec(a))) {
      v.noAutoAllow.push("npx may download and run a package");
    }
  },
  pip: pipInstall,
  pip3: pipInstall,
  uv(args, v) {
    if (args[0] === "pip") pipInstall(args.slice(1), v);
    if (args[0] === "run" && args.includes("--with")) {
      v.noAutoAllow.push("uv run --with installs packages first");
    }
  },
  pipx(args, v) {
    if (args[0] === "run") v.noAutoAllow.push("pipx run may download and run a package");
  },
  ssh: sshOptions,
  scp: sshOptions,
  sftp: sshOptions,
  alias(args, v) {
    if (args.some((a) => a.includes("="))) v.noAutoAllow.push("alias definitions can shadow other commands");
    v.readOnly = args.every((a) => !a.includes("="));
  },
  trap(_args, v) {
    v.noAutoAllow.push("trap registers a command that runs later");
  },
  fc(_args, v) {
    v.noAutoAllow.push("fc runs commands again from the history");
  },
  rsync(args, v) {
    // `-e ssh` (with options) is the usual transport; any other remote shell is another program.
    args.forEach((a, i) => {
      const value = /^--rsh=|^--rsync-path=/.test(a)
        ? a.slice(a.indexOf("=") + 1)
        : /^(?:--rsh|--rsync-path)$|^-[a-zA-Z]*e$/.test(a)
        ? args[i + 1] ?? ""
        : /^-[a-zA-Z]*e./.test(a) && !a.startsWith("--")
        ? a.slice(a.indexOf("e") + 1)
        : undefined;
      const plainSsh = /^ssh(?:\s+-[a-zA-Z]+(?:\s+[\w.@:/-]+)?)*$/.test(value ?? "") &&
        !/ProxyCommand|LocalCommand|-F|-o/i.test(value ?? "");
      if (value !== undefined && (a.includes("rsync-path") || !plainSsh)) {
        v.noAutoAllow.push(`rsync ${a.split("=")[0]} runs another program`);
      }
    });
  },
  go(args, v) {
    if ((args[0] === "run" || args[0] === "tool") && args.some((a) => /@/.test(a) && !a.startsWith("-"))) {
      v.noAutoAllow.push(`go ${args[0]} downloads and runs a module`);
    }
  },
  cargo(args, v) {
    if (args[0] === "install" && args.some((a) => /^--(?:git|path|index|registry)(?:=|$)/.test(a))) {
      v.noAutoAllow.push("cargo install builds (and runs build scripts of) code from an arbitrary origin");
    }
  },
  deno(args, v) {
    if (args.some((a) => /^(?:https?|npm|jsr):/.test(a))) {
      v.noAutoAllow.push("deno runs or installs code from the network");
    }
  },
  crontab(args, v) {
    v.readOnly = args.length === 1 && args[0] === "-l";
  },
  cd(args, v) {
    v.readOnly = !args.some((a) => a === "-");
  },
};

const words = (list: string) => new Set(list.split(" "));

/**
 * Developer tools whose listed subcommands only read (the first word after the tool; a flag before
 * it makes the command not read-only, since its value could be taken for the subcommand).
 */
const READ_ONLY_SUBCOMMANDS: Record<string, ReadonlySet<string>> = {
  docker: words("ps images inspect logs version info history port top"),
  podman: words("ps images inspect logs version info history port top"),
  kubectl: words("get describe logs version explain api-resources api-versions cluster-info top"),
  helm: words("list ls status get history version show search"),
  terraform: words("version show output providers graph"),
};

/** `gh <group> <action>`: the actions that only read. */
const GH_READ_ONLY_ACTIONS = words("list view status diff checks");
const GH_GROUPS = words("pr issue repo run release workflow gist label cache");

function readOnlySubcommand(name: string, args: string[]): boolean {
  const first = args[0] ?? "";
  if (name === "gh") return GH_GROUPS.has(first) && GH_READ_ONLY_ACTIONS.has(args[1] ?? "");
  if (name === "go") return first === "version" || (first === "env" && !args.some((a) => /^-[wu]$/.test(a)));
  return READ_ONLY_SUBCOMMANDS[name]?.has(first) === true;
}

function awk(args: string[], v: Verdict): void {
  const call = readAwk(args);
  const risks = call.programs.map(awkProgramRisk);
  const unsafe = risks.find((r) => r.unsafe)?.unsafe;
  if (unsafe) v.noAutoAllow.push(unsafe);
  v.readOnly = call.programs.length > 0 && !call.programFile && call.otherOption === undefined &&
    risks.every((r) => !r.unsafe && !r.problem);
}

/** ssh, scp, sftp: `-o ProxyCommand=...` in any spelling, `-F`, `-S` (the name is the rule's first word). */
function sshOptions(args: string[], v: Verdict): void {
  const why = sshRunsProgram(v.ruleWords[0] ?? "", args);
  if (why) v.noAutoAllow.push(why);
}

function pagerEscapes(args: string[], v: Verdict): void {
  const escape = args.find((a) => a.startsWith("+"));
  if (escape) v.noAutoAllow.push(`${escape} runs pager commands at start-up`);
  v.readOnly = !escape;
}

/** A package spec that is a URL, git remote, tarball or local path rather than a registry name. */
function isRemoteSpec(spec: string): boolean {
  return /^(?:https?:|git[+:]|ssh:|github:|gitlab:|bitbucket:|gist:)|^[\w.-]+\/[\w.-]+(?:#.*)?$/.test(spec) &&
    !spec.startsWith("@");
}

const NPM_INSTALL = new Set(
  ("i install add in ins inst insta instal isnt isntal update up").split(" "),
);
const NPM_READ_ONLY = new Set(
  ("ls list ll la view info show outdated root prefix why explain audit search help whoami ping " +
    "doctor fund").split(" "),
);

function packageManager(args: string[], v: Verdict): void {
  const parsed = parseArgs(args);
  const [sub, ...rest] = parsed.operands;
  if (sub === undefined) return;
  if (NPM_INSTALL.has(sub) && rest.some(isRemoteSpec)) {
    v.noAutoAllow.push("installs a package from an arbitrary origin (URL, git or tarball)");
  }
  const offline = hasOption(parsed, "--no-install", "--no", "--offline");
  if ((sub === "exec" || sub === "dlx" || sub === "x") && !offline) {
    v.noAutoAllow.push(`${sub} may download and run a package`);
  }
  if (sub === "pkg" && rest[0] === "set" && rest.some((a) => a.startsWith("scripts."))) {
    v.noAutoAllow.push("npm pkg set scripts.* changes what npm runs");
  }
  if (sub === "set-script") v.noAutoAllow.push("npm set-script changes what npm runs");
  if (sub === "config" && rest[0] === "set") {
    v.noAutoAllow.push("npm config set can change which programs npm runs");
  }
  if (args.some((a) => /^--(?:script-shell|node-options)(?:=|$)/.test(a))) {
    v.noAutoAllow.push("--script-shell / --node-options make npm run another program");
  }
  v.readOnly = (NPM_READ_ONLY.has(sub) && !(sub === "audit" && rest[0] === "fix")) ||
    (sub === "config" && (rest[0] === "get" || rest[0] === "list")) || (sub === "pkg" && rest[0] === "get");
}

function pipInstall(args: string[], v: Verdict): void {
  if (args[0] !== "install" && args[0] !== "download") {
    v.readOnly = ["list", "show", "freeze", "check", "help"].includes(args[0] ?? "");
    return;
  }
  const risky = args.find((a) =>
    /^(?:git\+|hg\+|svn\+|bzr\+|https?:|file:)/.test(a) ||
    /^(?:-i|--index-url|--extra-index-url|-f|--find-links|--trusted-host)(?:=|$)/.test(a)
  );
  if (risky) v.noAutoAllow.push(`pip installs from an arbitrary origin (${risky.split("=")[0]})`);
}
