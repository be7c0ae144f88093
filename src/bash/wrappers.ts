/**
 * Wrappers and environment assignments. Transparent wrappers (`timeout 5 npm test`) are stripped so
 * rules see the real command; executing wrappers (`sudo`, `bash -c`, `xargs -0`, `find -exec`) are
 * opened and the command inside is judged as a command of its own.
 */
import type { RawCommand, Word } from "./command.ts";

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
  "GOFLAGS",
  "PYTHONUNBUFFERED",
  "PYTHONDONTWRITEBYTECODE",
  "PYTHONHASHSEED",
  "NODE_NO_WARNINGS",
]);

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

/** Splits a command into what runs: itself (wrappers stripped) plus commands and scripts inside it. */
export function unwrap(raw: RawCommand): { invocations: Invocation[]; scripts: Script[] } {
  const env: Record<string, string> = {};
  for (const { name, value } of raw.assignments) env[name] = value;
  const out = { invocations: [] as Invocation[], scripts: [] as Script[] };
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

type Out = { invocations: Invocation[]; scripts: Script[] };

function open(inv: Invocation, out: Out, depth: number): void {
  if (depth > MAX_WRAPPER_DEPTH) {
    inv.notes.push("wrappers nested too deeply to follow");
    out.invocations.push(inv);
    return;
  }
  const texts = inv.words.map((w) => w.text);
  const name = basename(texts[0] ?? "");
  const strip = (count: number, extra: Partial<Invocation> = {}) =>
    open({ ...inv, ...extra, words: inv.words.slice(count) }, out, depth + 1);
  const derive = (count: number, via: string, notes: string[] = []) => {
    inv.notes.push(`${via} runs another command`);
    out.invocations.push(inv);
    const inner = inv.words.slice(count);
    if (inner.length > 0) {
      open(
        { ...inv, words: inner, argv: inner.map((w) => w.text), via, notes, env: {}, sideEffects: false },
        out,
        depth + 1,
      );
    }
  };
  const script = (text: string, via: string) => {
    out.scripts.push({ text, via, env: inv.env });
  };

  switch (name) {
    case "time":
    case "noglob":
    case "builtin":
      return strip(skipFlags(texts, 1, ""));
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
      if (texts.slice(1).some((t) => /^-[a-zA-Z]*[vV]/.test(t))) return keep(inv, out);
      return strip(skipFlags(texts, 1, ""));
    }
    case "exec":
      return texts.length === 1 ? keep(inv, out) : strip(skipFlags(texts, 1, "a"));
    case "env":
      return unwrapEnv(inv, texts, out, depth);
    case "xargs":
      return unwrapXargs(inv, texts, out, depth);
    case "sudo":
    case "doas":
      return derive(skipFlags(texts, 1, "ugpCDhrtTU"), name);
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
      const c = texts.findIndex((t) => t === "-c" || t === "--command");
      inv.notes.push(`${name} runs a shell command`);
      out.invocations.push(inv);
      if (c !== -1) script(texts[c + 1] ?? "", `${name} -c`);
      return;
    }
    case "parallel":
      inv.notes.push("parallel runs its arguments as shell commands");
      out.invocations.push(inv);
      return script(texts.slice(skipFlags(texts, 1, "jS")).join(" ").split(" ::: ")[0] ?? "", "parallel");
    case "source":
    case ".":
      return keep(inv, out, `${name} runs a script file in the current shell`);
    default:
      if (SHELLS.has(name)) return unwrapShell(inv, texts, out);
      out.invocations.push(inv);
  }
}

function keep(inv: Invocation, out: Out, note?: string): void {
  if (note) inv.notes.push(note);
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

/** Long options of wrappers that take a separate value. */
const LONG_VALUE =
  /^--(?:signal|kill-after|user|group|adjustment|input|output|error|chdir|unset|split-string|max-args|max-lines|max-procs|delimiter|replace|arg-file|eof|max-chars|class|classdata|timeout|conflict-exit-code|interval)$/;

function unwrapEnv(inv: Invocation, texts: string[], out: Out, depth: number): void {
  const env = { ...inv.env };
  let i = 1;
  for (; i < texts.length; i++) {
    const t = texts[i]!;
    if (t === "-i" || t === "--ignore-environment" || t === "-0" || t === "--null") continue;
    if (t === "-u" || t === "--unset") {
      i++;
      continue;
    }
    if (t === "-S" || t.startsWith("--split-string") || t.startsWith("-S")) {
      return keep(inv, out, "env -S splits a string into a command");
    }
    if (t === "-C" || t === "--chdir") return keep(inv, out, "env -C runs the command in another directory");
    if (t === "--") {
      i++;
      break;
    }
    const eq = t.indexOf("=");
    if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(t.slice(0, eq))) {
      env[t.slice(0, eq)] = t.slice(eq + 1);
      continue;
    }
    if (t.startsWith("-")) return keep(inv, out, `unrecognised env option ${t}`);
    break;
  }
  if (i >= texts.length) return keep(inv, out);
  open({ ...inv, env, words: inv.words.slice(i) }, out, depth + 1);
}

const XARGS_VALUE_FLAGS = "nLPsdEIaie";

function unwrapXargs(inv: Invocation, texts: string[], out: Out, depth: number): void {
  const at = skipFlags(texts, 1, XARGS_VALUE_FLAGS);
  const hasFlags = at > 1;
  if (at >= texts.length) return keep(inv, out);
  const inner = inv.words.slice(at);
  const innerName = basename(inner[0]!.text);
  const feedsShell = SHELLS.has(innerName) || innerName === "eval" ||
    /^(?:python[\d.]*|node|perl|ruby|php)$/.test(innerName);
  if (feedsShell) inv.notes.push("xargs feeds its input to a shell or interpreter");
  if (!hasFlags && !feedsShell) {
    // Bare xargs is transparent for rules, but what it runs gets arguments nobody has seen.
    return open({ ...inv, words: inner, via: "xargs" }, out, depth + 1);
  }
  out.invocations.push(inv);
  inv.notes.push("xargs runs another command");
  open(
    {
      ...inv,
      words: inner,
      argv: inner.map((w) => w.text),
      via: "xargs",
      env: {},
      notes: [],
      sideEffects: false,
    },
    out,
    depth + 1,
  );
}

function unwrapShell(inv: Invocation, texts: string[], out: Out): void {
  const name = basename(texts[0]!);
  const c = texts.findIndex((t, i) => i > 0 && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(t));
  if (c !== -1) {
    const code = texts[c + 1];
    if (code === undefined) return keep(inv, out, `${name} -c without a command`);
    out.scripts.push({ text: code, via: `${name} -c`, env: inv.env });
    return;
  }
  const operand = texts.slice(1).find((t) => !t.startsWith("-") && !t.startsWith("+"));
  if (operand === undefined) return keep(inv, out, `${name} runs its standard input as shell code`);
  keep(inv, out, `${name} runs the script ${operand}`);
}

/**
 * Literal text a shell reads as its code from standard input: `echo '...' | sh`,
 * `printf '...' | bash`, `sh <<< '...'`. It is analyzed like `sh -c '...'`; anything else a shell
 * reads from a pipe stays unknown (and asks).
 */
export function stdinScript(raw: RawCommand, all: readonly RawCommand[]): Script | undefined {
  const words = raw.words.map((w) => w.text);
  const name = basename(words[0] ?? "");
  if (!SHELLS.has(name) || words.slice(1).some((w) => !w.startsWith("-") || /^-[a-zA-Z]*c/.test(w))) {
    return undefined;
  }
  const here = raw.redirects.find((r) => r.op === "<<<");
  if (here) return { text: here.target, via: `${name} <<<`, env: {} };
  if (raw.pipe === 0 || raw.stage === 0) return undefined;
  const source = all.find((c) => c.pipe === raw.pipe && c.stage === raw.stage - 1 && c.nested === raw.nested);
  const [feeder, ...args] = source?.words.map((w) => w.text) ?? [];
  if (feeder === "echo") {
    return { text: args.filter((a) => !/^-[neE]+$/.test(a)).join(" "), via: `echo | ${name}`, env: {} };
  }
  if (feeder === "printf" && args[0] !== undefined && !args[0].includes("%")) {
    return { text: args[0].replaceAll("\\n", "\n"), via: `printf | ${name}`, env: {} };
  }
  return undefined;
}
