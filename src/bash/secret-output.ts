/**
 * Commands that only read, yet print secrets into the transcript: the whole environment (`env`,
 * `printenv`, `set`, `declare -p`, `ps e`, `jq -n env`, awk's `ENVIRON`), or a variable whose name
 * looks like a credential (`echo "$AWS_SECRET_ACCESS_KEY"`). Such a command is not read-only, so it
 * is not run without a person; an allow rule may still approve it. Secret-looking names are the
 * sandbox's own list (`DEFAULT_SECRET_ENV_PATTERNS`), so what the sandbox scrubs is what asks here.
 *
 * ```ts
 * printedSecrets("printenv", [], []); // ["printenv prints the whole environment, which holds secrets"]
 * secretVariable("GITHUB_TOKEN");     // "*TOKEN*"
 * ```
 */
import type { Word } from "./command.ts";
import { inlineCode } from "./inline-code.ts";
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

/** Builtins that print every variable (with values) when given no names. */
const DUMPS_WITHOUT_NAMES = new Set(["set", "declare", "typeset", "export", "readonly", "local"]);
const PRINTERS = new Set(["echo", "printf"]);
const AWKS = new Set(["awk", "gawk", "mawk", "nawk"]);
/** Every command this module judges: the rest print no variables. */
const SHOWS_VALUES = new Set([
  "env",
  "printenv",
  "ps",
  "jq",
  "gojq",
  ...DUMPS_WITHOUT_NAMES,
  ...PRINTERS,
  ...AWKS,
]);

/**
 * Why this command prints secrets (empty when it does not). `words` are its arguments as the
 * walker read them (an unknown variable keeps its `$NAME` form), `redirects` its redirections.
 */
export function printedSecrets(
  name: string,
  words: readonly Word[],
  redirects: readonly Redirect[],
): string[] {
  if (!SHOWS_VALUES.has(name) && !redirects.some((r) => r.op === "<<<")) return [];
  const args = words.map((w) => w.text);
  const operands = args.filter((a) => !a.startsWith("-") && !a.startsWith("+"));
  const out: string[] = [];
  const dump = `${name} prints the whole environment, which holds secrets`;
  if (name === "env" && operands.every((a) => a.includes("="))) out.push(dump);
  if (name === "printenv") {
    if (operands.length === 0) out.push(dump);
    for (const variable of operands) out.push(...secretNamed(name, variable));
  }
  if (DUMPS_WITHOUT_NAMES.has(name)) {
    const names = operands.filter((a) => !a.includes("="));
    if (operands.length === 0 && (name !== "set" || args.length === 0)) {
      out.push(`${name} without names prints every variable, secrets included`);
    }
    if (args.some((a) => /^-[a-zA-Z]*p/.test(a))) {
      for (const n of names) out.push(...secretNamed(name, n));
    }
  }
  if (name === "ps" && psShowsEnvironment(args)) {
    out.push("ps with e (or -E) shows every process's environment, which holds secrets");
  }
  if ((name === "jq" || name === "gojq") && /\$ENV\b|(?<![\w$.])env\b/.test(jqFilter(args) ?? "")) {
    out.push(`${name}'s filter reads the environment (env, $ENV), which holds secrets`);
  }
  if (AWKS.has(name) && /\bENVIRON\b/.test(inlineCode(name, args)?.code ?? "")) {
    out.push(`the ${name} program reads ENVIRON, the environment, which holds secrets`);
  }
  const shown = PRINTERS.has(name) ? words : [];
  const herestrings = redirects.filter((r) => r.op === "<<<").map((r) => r.target);
  for (const text of [...shown.filter((w) => w.dynamic).map((w) => w.text), ...herestrings]) {
    if (/\$\{!/.test(text)) out.push(`${text} names variables indirectly; they may hold secrets`);
    for (const m of text.matchAll(/\$\{?([A-Za-z_]\w*)/g)) out.push(...secretNamed(name, m[1]!));
  }
  return [...new Set(out)];
}

function secretNamed(command: string, variable: string): string[] {
  const pattern = secretVariable(variable);
  return pattern ? [`${command} prints $${variable}, whose name looks like a secret (${pattern})`] : [];
}

/** UNIX-style options of ps that take a value (`-o FORMAT`, `-C NAME`), and BSD ones (`o FORMAT`). */
const PS_VALUE_SHORT = /^-[a-zA-Z]*[CGNOUgopqstu]$/;
const PS_VALUE_LONG =
  /^--(?:format|sort|pid|ppid|user|group|cols|columns|rows|lines|tty|sid|quick-pid|Group|User)$/;
const PS_VALUE_BSD = /[oOpptUkN]$/;

/** `ps e`, `ps auxe`, `ps eww`, `ps -E`: a BSD option word with `e` (UNIX `-e` means every process). */
function psShowsEnvironment(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-E") return true;
    if (PS_VALUE_SHORT.test(a) || PS_VALUE_LONG.test(a)) i++;
    else if (!a.startsWith("-")) {
      if (/^[a-zA-Z]+$/.test(a) && a.includes("e")) return true;
      if (PS_VALUE_BSD.test(a)) i++;
    }
  }
  return false;
}

/** jq's filter: its first operand, after options and their values (none with `-f`). */
function jqFilter(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (/^(?:-f|--from-file)$/.test(a) || a === "--args" || a === "--jsonargs") return undefined;
    if (/^--(?:arg|argjson|slurpfile|rawfile)$/.test(a)) i += 2;
    else if (/^(?:--indent|-L)$/.test(a)) i++;
    else if (!a.startsWith("-") || a === "-") return a;
  }
  return undefined;
}
