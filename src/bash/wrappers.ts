/**
 * Wrappers and environment assignments. Transparent wrappers (`timeout 5 npm test`) are stripped so
 * rules see the real command; executing wrappers (`sudo`, `bash -c`, `xargs -0`, `find -exec`) are
 * opened and the command inside is judged as a command of its own.
 */
import { plainWord, type RawCommand, type Word } from "./command.ts";
import { resolveGit } from "./git.ts";
import { settingsOf } from "./git-config.ts";
import { GIT_COMMANDS } from "./specs/git-commands.ts";
import { shellQuote } from "../tool/shell-quote.ts";
import { literalOutput } from "./printers.ts";

/**
 * Variables that only tune output, locale or a toolchain's target and cannot make a program run
 * other code. An assignment of any other variable (PATH, LD_PRELOAD, GIT_SSH_COMMAND, PAGER, ...)
 * stays attached to the command and keeps prefix allow rules from matching it.
 */
export const SAFE_ENV_VARS: ReadonlySet<string> = new Set([
  "NODE_ENV",
  "NO_COLOR",
  "FORCE_COLOR",
  "CI",
  "TZ",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "LC_COLLATE",
  "LC_MESSAGES",
  "LC_NUMERIC",
  "LC_TIME",
  "COLUMNS",
  "LINES",
  "TERM",
  "RUST_LOG",
  "RUST_BACKTRACE",
  "RUST_TEST_THREADS",
  "CARGO_TERM_COLOR",
  "GOOS",
  "GOARCH",
  "GOARM",
  "GOAMD64",
  "GOEXPERIMENT",
  "CGO_ENABLED",
  "GO111MODULE",
  "PYTHONUNBUFFERED",
  "PYTHONDONTWRITEBYTECODE",
  "PYTHONHASHSEED",
  "NODE_NO_WARNINGS",
]);

/**
 * Whether an assignment leaves the command as read-only as it was: a variable on the safe list whose
 * value names no file. glibc opens `TZ=/path`, `TZ=:path` and `TZ=../../path` (below
 * /usr/share/zoneinfo) as a time zone file, and `LANG=../../dir` as a locale directory.
 */
export function isSafeAssignment(name: string, value: string): boolean {
  return SAFE_ENV_VARS.has(name) && !NAMES_A_FILE.test(value);
}

/** An absolute or home path (after TZ's optional `:`), a `..` segment, or an expansion. */
const NAMES_A_FILE = /^:?[/~]|(?:^:?|\/)\.\.(?:\/|$)|[$`]/;

export interface Invocation {
  /** The command that actually runs, wrappers removed. */
  words: Word[];
  /** The words as written, wrappers included (what `analyze` shows as argv). */
  argv: string[];
  env: Record<string, string>;
  raw: RawCommand;
  via?: string;
  /** Reasons, found while unwrapping, why no prefix rule may allow this command. */
  notes: string[];
  /** A stripped wrapper has effects of its own (nohup writes nohup.out): not read-only. */
  sideEffects: boolean;
  /** The directory a wrapper runs the command in (`env -C DIR`, `sudo -D DIR`). */
  chdir?: string;
  /** `find ROOTS -exec cmd {}`: `{}` is each file found below the roots (followed links with -L). */
  found?: { roots: string[]; follow: boolean };
}

/** Shell code handed to a shell as a string (`bash -c '...'`, `eval ...`): analyzed recursively. */
export interface Script {
  text: string;
  via: string;
  /** Assignments on the wrapper; they reach every command of the script. */
  env: Record<string, string>;
}

export const SHELLS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "ash",
  "fish",
  "yash",
  "csh",
  "tcsh",
]);
const STANDARD_BIN = /^\/(?:usr\/(?:local\/)?)?s?bin\/|^\/opt\/homebrew\/bin\//;
const MAX_WRAPPER_DEPTH = 8;

export function basename(word: string): string {
  return STANDARD_BIN.test(word) ? word.slice(word.lastIndexOf("/") + 1) : word;
}

/** git's own program directory (`git --exec-path`): `git-push` there is `git push`, `git` is git. */
const GIT_CORE =
  /^\/(?:usr\/(?:local\/)?|opt\/homebrew\/(?:opt\/git\/)?)?lib(?:exec)?\/git-core\/git(?:-([a-z][a-z0-9-]*))?$/;

/**
 * `git -c alias.rh='reset --hard' rh` runs `git reset --hard` (verified, git 2.39): an alias set
 * for this command (`-c`, `--config-env` with the variable assigned here, `GIT_CONFIG_COUNT`
 * pairs) is read as what it stands for; a `!` alias is shell code with the arguments appended.
 * Aliases from configuration files are looked up when deciding (`policy/git-alias.ts`).
 */
function gitAlias(
  words: Word[],
  env: Record<string, string>,
): { words?: Word[]; shell?: string } | undefined {
  const texts = words.map((w) => w.text);
  const call = resolveGit(texts.slice(1));
  if (call.subcommand === undefined || GIT_COMMANDS.has(call.subcommand)) return undefined;
  const wanted = `alias.${call.subcommand.toLowerCase()}`;
  const value = settingsOf(words, env).settings.findLast((s) => s.key.toLowerCase() === wanted)?.value;
  if (value === undefined) return undefined;
  const at = texts.length - call.args.length - 1;
  if (value.startsWith("!")) {
    return { shell: [value.slice(1), ...call.args.map(shellQuote)].join(" ") };
  }
  const expanded = value.split(/\s+/).filter((w) => w !== "").map(plainWord);
  return { words: [...words.slice(0, at), ...expanded, ...words.slice(at + 1)] };
}

/** `/usr/lib/git-core/git-push origin` as git reads it: `git push origin`, for rules and the guard. */
function asGit(words: Word[]): Word[] {
  const core = GIT_CORE.exec(words[0]?.text ?? "");
  if (!core) return words;
  const git = { ...words[0]!, text: "git" };
  return core[1] === undefined ? [git, ...words.slice(1)] : [git, plainWord(core[1]), ...words.slice(1)];
}

/**
 * Splits a command into what runs: itself (wrappers stripped) plus commands and scripts inside it.
 * `stdin` is what the command reads on standard input when that is known (`xargs` appends it).
 */
export function unwrap(raw: RawCommand, stdin?: string): { invocations: Invocation[]; scripts: Script[] } {
  const env: Record<string, string> = {};
  for (const { name, value } of raw.assignments) env[name] = value;
  const out: Out = { invocations: [], scripts: [], stdin };
  const argv = raw.words.map((w) => w.text);
  open(
    {
      words: raw.words,
      argv,
      env,
      raw,
      notes: [],
      sideEffects: false,
      ...(raw.nested ? { via: raw.nested } : {}),
    },
    out,
    0,
  );
  return out;
}

type Out = { invocations: Invocation[]; scripts: Script[]; stdin: string | undefined };

function open(inv: Invocation, out: Out, depth: number): void {
  if (depth > MAX_WRAPPER_DEPTH) {
    inv.notes.push("wrappers nested too deeply to follow");
    out.invocations.push(inv);
    return;
  }
  inv = { ...inv, words: asGit(inv.words) };
  const texts = inv.words.map((w) => w.text);
  const name = basename(texts[0] ?? "");
  const strip = (count: number, extra: Partial<Invocation> = {}) =>
    open({ ...inv, ...extra, words: inv.words.slice(count) }, out, depth + 1);
  const derive = (count: number, via: string, notes: string[] = []) => {
    inv.notes.push(`${via} runs another command`);
    out.invocations.push(inv);
    const inner = inv.words.slice(count);
    if (inner.length > 0) {
      open({ ...runBy(inv, inner, via), notes }, out, depth + 1);
    }
  };
  const script = (text: string, via: string) => {
    out.scripts.push({ text, via, env: inv.env });
  };
  if (name === "git") {
    const alias = gitAlias(inv.words, inv.env);
    if (alias?.shell !== undefined) {
      inv.notes.push("git runs a shell alias defined on the command line");
      out.invocations.push(inv);
      return script(alias.shell, "git alias");
    }
    if (alias?.words) return open({ ...inv, words: alias.words }, out, depth + 1);
  }

  switch (name) {
    case "time":
    case "noglob":
    case "nocorrect":
    case "-":
    case "coproc":
    case "builtin":
    case "busybox":
    case "toybox":
      return strip(skipFlags(texts, 1, ""));
    case "repeat":
      return strip(2);
    case "nohup":
      return strip(1, { sideEffects: true });
    case "nice":
      return strip(skipFlags(texts, 1, "n", /^-\d+$/));
    case "stdbuf":
      return strip(skipFlags(texts, 1, "ioe"));
    case "timeout": {
      const at = skipFlags(texts, 1, "sk");
      return /^\d+(?:\.\d+)?[smhd]?$/.test(texts[at] ?? "")
        ? strip(at + 1)
        : keep(inv, out, "timeout without a duration");
    }
    case "command": {
      // Only command's own options (before the name) describe instead of run: `command cargo -V` runs cargo.
      const at = skipFlags(texts, 1, "");
      if (texts.slice(1, at).some((t) => /^-[a-zA-Z]*[vV]/.test(t))) return keep(inv, out);
      return strip(at);
    }
    case "exec":
      return texts.length === 1 ? keep(inv, out) : strip(skipFlags(texts, 1, "a"));
    case "env":
      return unwrapEnv(inv, texts, out, depth);
    case "xargs":
      return unwrapXargs(inv, texts, out, depth);
    case "sudo":
    case "doas": {
      const at = skipFlags(texts, 1, "ugpCDhrtTU");
      const chdir = optionValue(texts.slice(1, at), "D", "--chdir");
      if (chdir === undefined) return derive(at, name);
      inv.notes.push(`${name} runs another command`);
      out.invocations.push(inv);
      return open({ ...runBy(inv, inv.words.slice(at), name), chdir }, out, depth + 1);
    }
    case "pkexec":
    case "unshare":
    case "systemd-run":
    case "fakeroot":
    case "strace":
    case "ltrace":
    case "nsenter":
      return derive(skipFlags(texts, 1, RUNNER_VALUE_FLAGS[name] ?? ""), name);
    case "chroot":
      return derive(skipFlags(texts, 1, "") + 1, name);
    case "valgrind":
      return derive(skipFlags(texts, 1, ""), name);
    case "find":
      return unwrapFind(inv, texts, out, depth);
    case "setsid":
    case "ionice":
    case "chrt":
    case "taskset":
    case "flock":
    case "unbuffer":
    case "caffeinate": {
      const at = skipFlags(texts, 1, name === "ionice" ? "cnt" : name === "flock" ? "wEc" : "");
      const positional = name === "flock" || name === "chrt" || name === "taskset" ? 1 : 0;
      const c = texts.indexOf("-c");
      if (name === "flock" && c !== -1) {
        inv.notes.push("flock -c runs a shell command");
        out.invocations.push(inv);
        return script(texts[c + 1] ?? "", "flock -c");
      }
      return derive(at + positional, name);
    }
    case "watch": {
      const at = skipFlags(texts, 1, "nqg");
      inv.notes.push("watch runs its arguments as a shell command, repeatedly");
      out.invocations.push(inv);
      return script(texts.slice(at).join(" "), "watch");
    }
    case "eval":
      return script(texts.slice(1).join(" "), "eval");
    case "su":
    case "runuser":
    case "script": {
      const command = commandValue(texts);
      if (command === undefined && name === "runuser" && texts.includes("-u")) {
        return derive(skipFlags(texts, 1, "ugG"), name);
      }
      inv.notes.push(`${name} runs a shell command`);
      out.invocations.push(inv);
      if (command !== undefined) script(command, `${name} -c`);
      return;
    }
    case "emulate": {
      const c = texts.indexOf("-c");
      if (c === -1) return keep(inv, out);
      inv.notes.push("emulate -c runs shell code");
      out.invocations.push(inv);
      return script(texts[c + 1] ?? "", "emulate -c");
    }
    case "trap":
      out.invocations.push(inv);
      if (texts[1] !== undefined && !/^-[lp]?$/.test(texts[1]) && texts.length > 2) script(texts[1], "trap");
      return;
    case "sched":
      inv.notes.push("sched runs a command later");
      out.invocations.push(inv);
      return script(texts.slice(2).join(" "), "sched");
    case "at":
    case "batch":
      return keep(inv, out, `${name} runs shell commands from its input later`);
    case "parallel":
      return unwrapParallel(inv, texts, out);
    case "source":
    case ".": {
      const file = inv.words[1]?.printed;
      inv.notes.push(`${name} runs a script file in the current shell`);
      out.invocations.push(inv);
      if (file !== undefined) script(file, `${name} <(...)`);
      return;
    }
    default:
      if (SHELLS.has(name)) return unwrapShell(inv, texts, out);
      out.invocations.push(inv);
  }
}

/** Value-taking short options of commands that run the command after their options. */
const RUNNER_VALUE_FLAGS: Record<string, string> = {
  "systemd-run": "pEMHu",
  fakeroot: "ils",
  strace: "eoOpsSuEPIbaX",
  ltrace: "eoOpsSuEPIbaXnA",
  nsenter: "tSG",
};

/** `find ... -exec cmd {} ;`: each command after -exec, -execdir, -ok or -okdir runs on its own. */
function unwrapFind(inv: Invocation, texts: string[], out: Out, depth: number): void {
  out.invocations.push(inv);
  const found = findRoots(texts);
  texts.forEach((t, i) => {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(t)) return;
    let end = i + 1;
    while (end < texts.length && texts[end] !== ";" && texts[end] !== "+") end++;
    const inner = inv.words.slice(i + 1, end);
    if (inner.length === 0) return;
    open({ ...runBy(inv, inner, `find ${t}`), found }, out, depth + 1);
  });
}

/** The directories find walks (`.` when none is named) and whether it follows links (`-L`, `-follow`). */
function findRoots(texts: string[]): { roots: string[]; follow: boolean } {
  let i = 1;
  while (i < texts.length && /^-[HLP]+$|^-O\d*$|^-D$/.test(texts[i]!)) i += texts[i] === "-D" ? 2 : 1;
  const roots: string[] = [];
  while (i < texts.length && !/^[-(!]/.test(texts[i]!)) roots.push(texts[i++]!);
  const follow = texts.some((t, k) => (t === "-follow" || /^-[HP]*L[HLP]*$/.test(t)) && k > 0);
  return { roots: roots.length > 0 ? roots : ["."], follow };
}

/** At most this many `:::` arguments of parallel are analyzed one by one. */
const MAX_PARALLEL_ARGS = 16;

/** `parallel cmd ::: a b`: runs `cmd a` and `cmd b` as shell commands; with no cmd the arguments are the commands. */
function unwrapParallel(inv: Invocation, texts: string[], out: Out): void {
  inv.notes.push("parallel runs its arguments as shell commands");
  out.invocations.push(inv);
  const at = skipFlags(texts, 1, "jS");
  const sep = texts.indexOf(":::", at);
  const command = texts.slice(at, sep === -1 ? undefined : sep).join(" ");
  const args = sep === -1
    ? []
    : texts.slice(sep + 1, sep + 1 + MAX_PARALLEL_ARGS).filter((a) => !a.startsWith(":::"));
  if (args.length === 0) {
    out.scripts.push({ text: command, via: "parallel", env: inv.env });
    return;
  }
  for (const arg of args) {
    const text = command === ""
      ? arg
      : command.includes("{}")
      ? command.replaceAll("{}", arg)
      : `${command} ${arg}`;
    out.scripts.push({ text, via: "parallel", env: inv.env });
  }
}

/** The command a wrapper runs, as an invocation of its own (the wrapper's notes and env stay with it). */
function runBy(inv: Invocation, words: Word[], via: string): Invocation {
  return { ...inv, words, argv: words.map((w) => w.text), via, notes: [], env: {}, sideEffects: false };
}

function keep(inv: Invocation, out: Out, ...notes: string[]): void {
  inv.notes.push(...notes);
  out.invocations.push(inv);
}

/**
 * Index of the first operand after flags. `valueFlags` are single letters that take a value
 * (`-n 5` or `-n5`); `alsoFlag` matches other words to skip (`nice -10`).
 */
function skipFlags(texts: string[], from: number, valueFlags: string, alsoFlag?: RegExp): number {
  let i = from;
  while (i < texts.length) {
    const t = texts[i]!;
    if (t === "--") return i + 1;
    if (alsoFlag?.test(t)) {
      i++;
      continue;
    }
    if (!t.startsWith("-") || t === "-") return i;
    if (t.startsWith("--")) {
      i += t.includes("=") || !LONG_VALUE.test(t) ? 1 : 2;
      continue;
    }
    const letters = t.slice(1);
    const valueAt = [...letters].findIndex((c) => valueFlags.includes(c));
    i += valueAt !== -1 && valueAt === letters.length - 1 ? 2 : 1;
  }
  return i;
}

/** The value of short option `letter` (`-D DIR`, `-DDIR`) or `--long[=]VALUE` among `words`. */
function optionValue(words: string[], letter: string, long: string): string | undefined {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === long) return words[i + 1];
    if (w.startsWith(`${long}=`)) return w.slice(long.length + 1);
    const at = /^-[A-Za-z]+$/.test(w) ? w.indexOf(letter) : -1;
    if (at > 0) return at < w.length - 1 ? w.slice(at + 1) : words[i + 1];
  }
  return undefined;
}

/** Long options of wrappers that take a separate value. */
const LONG_VALUE =
  /^--(?:signal|kill-after|user|group|adjustment|input|output|error|chdir|unset|split-string|max-args|max-lines|max-procs|delimiter|replace|arg-file|eof|max-chars|class|classdata|timeout|conflict-exit-code|interval)$/;

/** GNU env's options that take a value, short and long (`-u NAME`, `--unset=NAME`, `-C DIR`). */
const ENV_VALUE_SHORT = "uCa";
const ENV_VALUE_LONG = /^--(?:unset|chdir|argv0)$/;
/** Options that only tune env itself. */
const ENV_PLAIN =
  /^-[i0v]+$|^--(?:ignore-environment|null|debug|(?:block|default|ignore)-signal(?:=.*)?|list-signal-handling)$/;

/**
 * `env [OPTION]... [NAME=VALUE]... [COMMAND [ARG]...]`: the command runs with the assignments, in
 * `-C DIR` when given. An option env does not know still leaves the command judged (for deny
 * rules and catastrophes), but no prefix rule may allow it.
 */
function unwrapEnv(inv: Invocation, texts: string[], out: Out, depth: number): void {
  const env = { ...inv.env };
  const notes: string[] = [];
  let chdir: string | undefined;
  let i = 1;
  for (; i < texts.length; i++) {
    const t = texts[i]!;
    if (t === "--") {
      i++;
      break;
    }
    // `-S STRING`, `-SSTRING`, and after flags that take no value: `-vS'curl x'`, `-iS STRING`.
    const split = /^-[iv0]*S(.*)$/s.exec(t);
    if (split || t.startsWith("--split-string")) {
      const eq = t.indexOf("=");
      const text = t === "--split-string" || split?.[1] === ""
        ? texts.slice(i + 1).join(" ")
        : [split ? split[1]! : t.slice(eq + 1), ...texts.slice(i + 1)].join(" ");
      inv.notes.push("env -S splits a string into a command");
      out.invocations.push(inv);
      out.scripts.push({ text, via: "env -S", env });
      return;
    }
    if (ENV_PLAIN.test(t)) continue;
    const short = /^-([A-Za-z0-9]*?)([uCa])(.*)$/.exec(t);
    const long = /^--[a-z0-9-]+/.exec(t)?.[0];
    if (short && !t.startsWith("--") && ENV_VALUE_SHORT.includes(short[2]!)) {
      const value = short[3] !== "" ? short[3]! : texts[++i] ?? "";
      if (short[2] === "C") chdir = value;
    } else if (long && ENV_VALUE_LONG.test(long)) {
      const value = t.includes("=") ? t.slice(t.indexOf("=") + 1) : texts[++i] ?? "";
      if (long === "--chdir") chdir = value;
    } else if (t.startsWith("-")) notes.push(`unrecognised env option ${t}`);
    else {
      const eq = t.indexOf("=");
      if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(t.slice(0, eq))) env[t.slice(0, eq)] = t.slice(eq + 1);
      else break;
    }
  }
  if (i >= texts.length) return keep(inv, out, ...notes);
  if (chdir === undefined && notes.length === 0) {
    return open({ ...inv, env, words: inv.words.slice(i) }, out, depth + 1);
  }
  // The command runs elsewhere, or env was given something it may read otherwise: judged apart.
  inv.notes.push(...notes, ...(chdir !== undefined ? ["env -C runs the command in another directory"] : []));
  out.invocations.push(inv);
  const inner = runBy(inv, inv.words.slice(i), chdir !== undefined ? "env -C" : "env");
  open({ ...inner, env, ...(chdir !== undefined ? { chdir } : {}) }, out, depth + 1);
}

/** Programs any extra words only give text to print (`ls | xargs echo`): nothing to check. */
const TAKES_ANY_WORDS = new Set(["echo", "printf", "basename", "dirname", "true", "false"]);
const XARGS_UNSEEN =
  "xargs appends words from its input, which cannot be checked: they may be options or paths outside the workspace";

/** `-i` and `-e` take their optional value attached (`-i{}`), never as the next word. */
const XARGS_VALUE_FLAGS = "nLPsdEIa";

function unwrapXargs(inv: Invocation, texts: string[], out: Out, depth: number): void {
  const at = skipFlags(texts, 1, XARGS_VALUE_FLAGS);
  const hasFlags = at > 1;
  if (at >= texts.length) return keep(inv, out);
  const inner = withInput(inv.words.slice(at), texts.slice(1, at), out.stdin);
  const innerName = basename(inner[0]!.text);
  const feedsShell = SHELLS.has(innerName) || innerName === "eval" ||
    /^(?:python[\d.]*|node|perl|ruby|php)$/.test(innerName);
  if (feedsShell) inv.notes.push("xargs feeds its input to a shell or interpreter");
  if (!hasFlags && !feedsShell) {
    // Bare xargs is transparent for rules, but what it runs gets arguments nobody has seen: they
    // may be options or paths anywhere, unless the program takes any words as mere text.
    const unseen = out.stdin === undefined && !TAKES_ANY_WORDS.has(innerName);
    const notes = unseen ? [...inv.notes, XARGS_UNSEEN] : inv.notes;
    return open({ ...inv, words: inner, via: "xargs", notes }, out, depth + 1);
  }
  out.invocations.push(inv);
  inv.notes.push("xargs runs another command");
  open(runBy(inv, inner, "xargs"), out, depth + 1);
}

/**
 * The words xargs runs when its input is known text (`echo / | xargs rm -rf` runs `rm -rf /`):
 * the input's items are appended, or put in place of the `-I` string.
 */
function withInput(inner: Word[], flags: string[], stdin: string | undefined): Word[] {
  const replaceAt = flags.findIndex((f) => /^-[Ii]/.test(f) || f.startsWith("--replace"));
  const flag = flags[replaceAt];
  const placeholder = flag === undefined
    ? undefined
    : flag.includes("=")
    ? flag.slice(flag.indexOf("=") + 1)
    : flag.length > 2 && !flag.startsWith("--")
    ? flag.slice(2)
    : flag === "-I"
    ? flags[replaceAt + 1] ?? "{}"
    : "{}";
  if (stdin === undefined) {
    // Words holding the `-I` string get their value from the input: known only when xargs runs.
    return placeholder === undefined
      ? inner
      : inner.map((w) => (w.text.includes(placeholder) ? { ...w, dynamic: true } : w));
  }
  const zero = flags.some((f) => /^-[a-zA-Z]*0$/.test(f) || f === "--null");
  const items = stdin.split(zero ? "\0" : placeholder !== undefined ? "\n" : /\s+/).filter((i) => i !== "");
  const item = (text: string): Word => ({ text, quoted: true, glob: false, dynamic: false });
  if (placeholder === undefined) return [...inner, ...items.map(item)];
  const first = items[0] ?? "";
  return inner.map((w) => ({ ...w, text: w.text.replaceAll(placeholder, first) }));
}

function unwrapShell(inv: Invocation, texts: string[], out: Out): void {
  const name = basename(texts[0]!);
  const c = texts.findIndex((t, i) => i > 0 && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(t));
  if (c !== -1) {
    const code = texts[c + 1] === "--" ? texts[c + 2] : texts[c + 1];
    if (code === undefined) return keep(inv, out, `${name} -c without a command`);
    out.scripts.push({ text: code, via: `${name} -c`, env: inv.env });
    return;
  }
  const at = inv.words.findIndex((w, i) => i > 0 && !w.text.startsWith("-") && !w.text.startsWith("+"));
  if (at === -1) return keep(inv, out, `${name} runs its standard input as shell code`);
  keep(inv, out, `${name} runs the script ${texts[at]}`);
  const printed = inv.words[at]!.printed;
  if (printed !== undefined) out.scripts.push({ text: printed, via: `${name} <(...)`, env: inv.env });
}

/**
 * What `raw` reads on standard input when the command line fixes it: a here-document, a
 * here-string, `< <(echo ...)`, or the output of `echo`/`printf`/`cat <<EOF` piped into it.
 */
export function stdinText(raw: RawCommand, all: readonly RawCommand[]): string | undefined {
  if (raw.stdin !== undefined || raw.pipe === 0 || raw.stage === 0) return raw.stdin;
  const source = all.find((c) => c.pipe === raw.pipe && c.stage === raw.stage - 1 && c.nested === raw.nested);
  return source ? literalOutput(source) : undefined;
}

/**
 * Known text a shell, `source /dev/stdin` or `at` reads as its code from standard input
 * (`echo '...' | sh`, `sudo bash <<EOF`, `at now <<< '...'`). It is analyzed like `sh -c '...'`;
 * anything else a shell reads from its input stays unknown (and asks).
 */
export function stdinScript(inv: Invocation, stdin: string | undefined): Script | undefined {
  if (stdin === undefined) return undefined;
  const words = inv.words.map((w) => w.text);
  const name = basename(words[0] ?? "");
  const args = words.slice(1);
  const reads = SHELLS.has(name)
    ? args.every((w) => w.startsWith("-") && !/^-[a-zA-Z]*c/.test(w))
    : name === "source" || name === "."
    ? args[0] === "/dev/stdin"
    : (name === "at" || name === "batch") && !args.some((a) => /^-[a-zA-Z]*[flrdc]/.test(a));
  return reads ? { text: stdin, via: `${name} <input>`, env: {} } : undefined;
}

/**
 * The value of `-c` / `--command` of su, runuser and script, as getopt_long reads it: `-c CMD`,
 * `-qcCMD`, `--command=CMD`, `--command CMD`, and any abbreviation (`--comm=CMD`).
 */
function commandValue(texts: readonly string[]): string | undefined {
  for (let i = 1; i < texts.length; i++) {
    const t = texts[i]!;
    if (t === "--") return undefined;
    const long = /^--(c[a-z]*)(?:=([^]*))?$/.exec(t);
    if (long && "command".startsWith(long[1]!)) return long[2] ?? texts[i + 1] ?? "";
    const short = /^-[a-zA-Z]*?c([^]*)$/.exec(t);
    if (short && !t.startsWith("--")) return short[1] !== "" ? short[1] : texts[i + 1] ?? "";
  }
  return undefined;
}
