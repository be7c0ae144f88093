/**
 * Values bash runs as code after they are assigned, which no command word shows:
 * - any value may be evaluated later (`x='a[$(cmd)]'; let x`, `PS4='$(cmd)'; set -x`), so the
 *   command substitutions written in a literal value are read as code;
 * - `PROMPT_COMMAND`, `LESSOPEN`, `EDITOR`, `GIT_SSH_COMMAND`, … run as command lines; `ENV` and
 *   `BASH_ENV` name files of code a shell reads;
 * - arithmetic evaluates the values of the names it uses, recursively: a name whose value is
 *   known only when it runs (`read x`, `x=$(cat f)`) makes what runs unknown.
 *
 * ```ts
 * assignedCode([{ name: "PS4", value: "$(id)" }]).scripts; // [{ text: "id", via: "the value of PS4" }]
 * ```
 */
import type { Judged, WalkResult } from "./command.ts";
import { evaluatedWords, hiddenSubstitutions } from "./evaluation.ts";

/**
 * Variables whose value bash or a program runs as a shell command line: bash's `PROMPT_COMMAND`
 * (also as an array), less's input preprocessor (after its `|`, `||` or `-`), the editors, pagers,
 * remote shells and password helpers programs start.
 */
const COMMAND_VARIABLES =
  /^(?:PROMPT_COMMAND(?:\[.*\])?|LESSOPEN|LESSCLOSE|EDITOR|VISUAL|FCEDIT|PAGER|MANPAGER|SYSTEMD_PAGER|BROWSER|GIT_SSH_COMMAND|GIT_SSH|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_PAGER|GIT_ASKPASS|SSH_ASKPASS|SUDO_ASKPASS|RSYNC_RSH|CVS_RSH)$/s;
/** Variables naming a file of shell code that shells read when they start. */
const STARTUP_FILES = new Set(["ENV", "BASH_ENV"]);
/** Prompts: bash expands them (command substitutions included) when it shows them. */
const PROMPTS = new Set(["PS0", "PS1", "PS2", "PS3", "PS4"]);
/** Builtins that assign the names they are given (`read x`, `printf -v x`). */
const ASSIGNING_BUILTINS = new Set(["read", "printf", "mapfile", "readarray", "getopts", "wait"]);
const DECLARATIONS = new Set(["declare", "typeset", "local", "export", "readonly"]);

export interface AssignedCode {
  scripts: { text: string; via: string }[];
  opaque: string[];
}

/** Code that assigned values run: scripts to read, and what cannot be read before it runs. */
export function assignedCode(assignments: readonly { name: string; value: string }[]): AssignedCode {
  const scripts: AssignedCode["scripts"] = [];
  const opaque: string[] = [];
  for (const { name, value } of assignments) {
    const via = `the value of ${name}`;
    for (const text of hiddenSubstitutions(value)) scripts.push({ text, via });
    if (STARTUP_FILES.has(name)) {
      opaque.push(`${name} names a file of shell code that a shell reads when it starts`);
    } else if (COMMAND_VARIABLES.test(name)) {
      if (isRuntimeValue(value)) opaque.push(`${name} runs a command known only when it runs`);
      else scripts.push({ text: value.replace(/^\s*(?:\|\|?|-)/, ""), via });
    } else if (PROMPTS.has(name) && isRuntimeValue(value)) {
      opaque.push(`${name} is expanded as a prompt, and its value is known only when it runs`);
    }
  }
  return { scripts, opaque };
}

/** Builtins that assign a prompt or a command variable a value read at run time (`read PS4`). */
export function builtinAssignedCode(judged: readonly Judged[]): string[] {
  return judged.flatMap((j) =>
    ASSIGNING_BUILTINS.has(j.name)
      ? assignedNames(j).filter((n) => STARTUP_FILES.has(n) || PROMPTS.has(n) || COMMAND_VARIABLES.test(n))
        .map((n) => `${j.name} assigns ${n}, which bash runs as code, a value known only when it runs`)
      : []
  );
}

/**
 * Why arithmetic in the line may run code no word shows: it evaluates a name whose value is known
 * only when it runs (`read x; (( x ))`), and bash evaluates that value as an expression in turn.
 */
export function arithmeticOnUnknownValues(walk: WalkResult, judged: readonly Judged[]): string[] {
  const unknown = new Set([...(walk.unknownValues ?? []), ...judged.flatMap(assignedNames)]);
  if (unknown.size === 0) return [];
  const evaluated = [...(walk.arithmeticNames ?? []), ...judged.flatMap(arithmeticNamesOf)];
  const found = evaluated.find((name) => unknown.has(name));
  return found === undefined
    ? []
    : [`arithmetic evaluates the value of ${found}, known only when it runs, which may run commands`];
}

/** Names a builtin assigns (`read -a x y`, `printf -v x`), subscripts left off. */
function assignedNames(j: Judged): string[] {
  if (!ASSIGNING_BUILTINS.has(j.name)) return [];
  return evaluatedWords(j.name, j.args).filter((w) => w.role === "varname").map((w) => baseName(w.text));
}

/** Names evaluated as arithmetic by a command's words: `let x`, `[[ x -eq 1 ]]`, `declare -i y=x`, `b[x]`. */
function arithmeticNamesOf(j: Judged): string[] {
  const texts = evaluatedWords(j.name, j.args).map((w) =>
    w.role === "arith" ? w.text : w.text.replace(/^[^[]*/, "")
  );
  const flags = j.args.filter((a) => /^[-+][a-zA-Z]+$/.test(a)).join("");
  if (DECLARATIONS.has(j.name) && /i/.test(flags)) texts.push(...Object.values(j.command.env));
  return texts.flatMap((t) => t.match(/[A-Za-z_]\w*/g) ?? []);
}

function baseName(text: string): string {
  return text.replace(/\[.*$/s, "");
}

/** A value with a part known only at run time that is not `$((...))` (always a number). */
function isRuntimeValue(value: string): boolean {
  return /[$`]/.test(value.replace(/\$\(\([^]*?\)\)/g, ""));
}
