/**
 * Argument-aware judgement of one command: is it read-only with these arguments, and which
 * arguments make it run other code so that no prefix rule for its leading word may cover it.
 */
import type { Word } from "./command.ts";
import { hasOption, parseArgs } from "./options.ts";
import { type Access, extractPaths } from "./paths.ts";
import { judgeWithSpec, type ReadOption } from "./spec-parse.ts";
import { printableVariable } from "./spec-values.ts";
import { specFor } from "./specs/index.ts";
import { secretMessage } from "./secret-output.ts";
import { sshRunsProgram } from "./ssh.ts";
import { basename } from "./wrappers.ts";

export interface Verdict {
  readOnly: boolean;
  noAutoAllow: string[];
  /** What it runs that rules cannot see (see `SpecVerdict.unseen`); also in `noAutoAllow`. */
  unseen: string[];
  /** Shell command lines it runs, to be read as code (see `SpecVerdict.commandLines`). */
  commandLines: { text: string; via: string }[];
  /** Why it runs inline code of an interpreter (`python3 -c`), when it does. */
  runsInline?: string;
  /** Words permission rules are matched against. */
  ruleWords: string[];
  paths: Access[];
  /** Why it is not read-only (empty when it is). */
  reasons: string[];
  /** Why it prints secrets (also in `reasons`): no allow rule may approve it. */
  secrets: string[];
  /** The options as the command's parser read them (commands with a spec). */
  options?: ReadOption[];
  /** The subcommands matched (commands with a spec), outermost first. */
  subcommands?: string[];
  /** An unquoted glob where a subcommand goes (`git pus*`). */
  globSubcommand?: string;
}

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
  // Engines, providers and config files are shared objects openssl loads and runs.
  openssl: [/^-(?:engine|provider-path|provider|pre|post|config)(?:=|$)/],
  // PKCS#11 and FIDO providers are shared objects ssh-keygen and ssh-add load.
  "ssh-keygen": [/^-[a-zA-Z]*[Dw]/],
  "ssh-add": [/^-[a-zA-Z]*[sS]/],
  // Macros expand `%(cmd)` and `%{lua:...}`: rpm runs them.
  rpm: [/^(?:-E|--eval|-D|--define|--predefine|--macros|--rcfile|--pipe|--load)(?:=|$)/],
  cpio: [/^--rsh-command(?:=|$)/],
  nc: [NC_EXEC],
  ncat: [NC_EXEC],
  netcat: [NC_EXEC],
  socat: [/(?:^|[,!:])(?:exec|system):/i],
  nano: [/^(?:-s|--speller)(?:=|$)/],
  sqlite3: [/^-cmd$|^\.(?:shell|system|once|output|load|read|import)\b|load_extension/i],
  hash: [/^-[a-zA-Z]*p/],
  enable: [/^-[a-zA-Z]*[fn]/],
  complete: [/^-[a-zA-Z]*C/],
  compgen: [/^-[a-zA-Z]*C/],
  bind: [/^-[a-zA-Z]*x/],
};

const EDITORS = new Set(["vi", "vim", "nvim", "view", "ex", "gvim", "evim", "vimdiff", "rvim"]);
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
  const spec = specFor(name);
  const verdict: Verdict = {
    readOnly: false,
    noAutoAllow: [],
    unseen: [],
    commandLines: [],
    ruleWords: [name, ...args],
    paths: [],
    reasons: [],
    secrets: [],
  };
  if (spec) {
    const judged = judgeWithSpec(name, spec, words.slice(1));
    Object.assign(verdict, {
      readOnly: judged.readOnly,
      reasons: judged.reasons,
      secrets: judged.secrets,
      ruleWords: judged.ruleWords,
      paths: judged.paths,
      options: judged.options,
      subcommands: judged.subcommands,
      ...(judged.globSubcommand ? { globSubcommand: judged.globSubcommand } : {}),
    });
    verdict.noAutoAllow.push(...judged.noAutoAllow);
    // git's options and config that run programs are judged by `gitRuns` (git-runs.ts).
    if (name !== "git") verdict.unseen.push(...judged.unseen);
    verdict.commandLines.push(...judged.commandLines);
  } else {
    verdict.paths = extractPaths(name, args);
    verdict.reasons.push(`${name} has no spec of what its arguments mean`);
    const dashDash = args.indexOf("--");
    if (
      words.slice(1).some((w, i) => w.glob && /^[-*?[]/.test(w.text) && (dashDash === -1 || i < dashDash))
    ) {
      verdict.noAutoAllow.push(
        `an unquoted glob in ${name}'s arguments could expand to a file name that acts as an option`,
      );
    }
  }
  const secret = PRINTERS.has(name) ? printedSecret(words.slice(1)) : undefined;
  if (secret) {
    verdict.readOnly = false;
    verdict.reasons.push(secret);
    verdict.secrets.push(secret);
  }
  SPECIFIC[name]?.(args, verdict);
  const interpreter = interpreterName(name);
  const inline = INLINE_CODE[interpreter];
  // Inline-code flags come before a script or subcommand (`bun -e x`, not `bun install -p`).
  const script = args.findIndex((a) => !a.startsWith("-") && (/[./]/.test(a) || name === "bun"));
  const beforeOperand = script === -1 ? args : args.slice(0, script);
  if (inline && beforeOperand.some((a) => inline.test(a))) {
    verdict.runsInline = `${name} runs inline code given as an argument`;
    verdict.noAutoAllow.push(verdict.runsInline);
  }
  const runs = args.find((a) => RUNS_PROGRAM[name]?.some((option) => option.test(a)));
  if (runs) runsUnseen(verdict, `${name} ${runs.split("=")[0]} runs another program`);
  if (EDITORS.has(name) && args.some((a) => /^(?:\+|-c$|--cmd$|-[a-zA-Z]*[sS]$|-u$)/.test(a))) {
    const why = `${name} +cmd / -c runs editor commands, which can run shell commands`;
    if (editorCommandsInert(args)) verdict.noAutoAllow.push(why);
    else runsUnseen(verdict, why);
  }
  if (PACKAGE_RUNNERS.has(name)) {
    verdict.noAutoAllow.push(`${name} runs a package that may be downloaded first`);
  }
  if (verdict.paths.some((p) => p.access === "write")) verdict.readOnly = false;
  if (verdict.noAutoAllow.length > 0) verdict.readOnly = false;
  return verdict;
}

const PRINTERS = new Set(["echo", "printf"]);

/**
 * `echo $AWS_SECRET_ACCESS_KEY` prints a secret into the transcript: a printer may print only
 * variables on the reviewed list (`specs/variables.ts`); `${!prefix*}` and `${!name}` are unknowable.
 */
function printedSecret(words: Word[]): string | undefined {
  for (const w of words) {
    if (!w.dynamic) continue;
    if (/\$\{!/.test(w.text)) return `${w.text} names variables indirectly; they may hold secrets`;
    for (const m of w.text.matchAll(/\$\{?([A-Za-z_]\w*)/g)) {
      if (!printableVariable(m[1]!)) return secretMessage(m[1]!);
    }
  }
  return undefined;
}

type Specific = (args: string[], verdict: Verdict) => void;

/**
 * Reasons no prefix rule may cover a command that is not read-only anyway (package managers that
 * download and run code, shells' own state): checks on top of the specs, which judge read-only.
 */
const SPECIFIC: Record<string, Specific> = {
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
  // `-o ProxyCommand=...` in any spelling, `-F`, `-S` (the name is the rule's first word).
  ssh: sshOptions,
  scp: sshOptions,
  sftp: sshOptions,
  alias(args, v) {
    if (args.some((a) => a.includes("="))) v.noAutoAllow.push("alias definitions can shadow other commands");
  },
  trap(_args, v) {
    v.noAutoAllow.push("trap registers a command that runs later");
  },
  fc(_args, v) {
    runsUnseen(v, "fc runs commands again from the history");
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
        runsUnseen(v, `rsync ${a.split("=")[0]} runs another program`);
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
};

function sshOptions(args: string[], v: Verdict): void {
  const why = sshRunsProgram(v.ruleWords[0] ?? "", args);
  if (why) runsUnseen(v, why);
}

/**
 * Editor commands on the command line that run nothing: every `-c`/`--cmd`/`+` value is one of a
 * few inert forms (`set nu`, `%s/a/b/` without a `\=` expression, `wq`, a line number), and no
 * script file (`-s`, `-S`) or vimrc (`-u`) is given.
 */
function editorCommandsInert(args: readonly string[]): boolean {
  const inert =
    /^(?:set?\s+[\w=:,.+-]+(?:\s+[\w=:,.+-]+)*|%?s([/#|])(?:(?!\\=)[^!])*|\d+|w|wq!?|x|q!?|qa!?|wqa!?)$/;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (/^-(?![eE]s$)[a-zA-Z]*[sS]$|^-u$/.test(a)) return false;
    const value = a === "-c" || a === "--cmd" ? args[++i] : a.startsWith("+") ? a.slice(1) : undefined;
    if (value !== undefined && value !== "" && !inert.test(value.trim())) return false;
  }
  return true;
}

/** A program or code it runs that no reading of its words shows: no rule can see it. */
function runsUnseen(v: Verdict, why: string): void {
  v.noAutoAllow.push(why);
  v.unseen.push(why);
}

/** A package spec that is a URL, git remote, tarball or local path rather than a registry name. */
function isRemoteSpec(spec: string): boolean {
  return /^(?:https?:|git[+:]|ssh:|github:|gitlab:|bitbucket:|gist:)|^[\w.-]+\/[\w.-]+(?:#.*)?$/.test(spec) &&
    !spec.startsWith("@");
}

const NPM_INSTALL = new Set(
  ("i install add in ins inst insta instal isnt isntal update up").split(" "),
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
    // `npm pkg set scripts.test="curl x" && npm test`: the value is the command line npm will run.
    for (const a of rest.filter((a) => /^scripts\.[^=]+=/.test(a))) {
      v.commandLines.push({
        text: a.slice(a.indexOf("=") + 1),
        via: `npm pkg set ${a.slice(0, a.indexOf("="))}`,
      });
    }
  }
  if (sub === "set-script") v.noAutoAllow.push("npm set-script changes what npm runs");
  if (sub === "config" && rest[0] === "set") {
    v.noAutoAllow.push("npm config set can change which programs npm runs");
  }
  if (args.some((a) => /^--(?:script-shell|node-options)(?:=|$)/.test(a))) {
    runsUnseen(v, "--script-shell / --node-options make npm run another program");
  }
}

function pipInstall(args: string[], v: Verdict): void {
  if (args[0] !== "install" && args[0] !== "download") return;
  const risky = args.find((a) =>
    /^(?:git\+|hg\+|svn\+|bzr\+|https?:|file:)/.test(a) ||
    /^(?:-i|--index-url|--extra-index-url|-f|--find-links|--trusted-host)(?:=|$)/.test(a)
  );
  if (risky) v.noAutoAllow.push(`pip installs from an arbitrary origin (${risky.split("=")[0]})`);
}
