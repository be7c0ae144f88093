/**
 * Words bash evaluates instead of passing on. An array subscript is an arithmetic expression, and
 * bash expands `$(...)` in it when it evaluates it, so `test -v 'a[$(cmd)]'`, `printf -v
 * 'a[$(cmd)]' x`, `read 'a[$(cmd)]'`, `unset 'a[$(cmd)]'`, `let`, integer declarations and
 * `[[ x -eq 'a[$(cmd)]' ]]` all run `cmd`, though it is written in single quotes. `mapfile -C`
 * runs its callback as code. Such a word is never read-only, no prefix rule may allow it, and the
 * code inside it is analyzed like `bash -c` code (so a catastrophic payload is denied).
 *
 * ```ts
 * evaluatedWords("test", ["-v", "a[$(id)]"]); // [{ text: "a[$(id)]", role: "varname", builtin: "test -v" }]
 * evaluationRisk("a[$(id)]", "varname");       // "bash evaluates the subscript of ..."
 * hiddenSubstitutions("a[$(id)]");              // ["id"]
 * ```
 */

/** How bash reads the word: as a variable name (subscript evaluated), as arithmetic, or as code. */
export type EvaluatedRole = "varname" | "arith" | "code";

export interface EvaluatedWord {
  text: string;
  role: EvaluatedRole;
  /** The builtin and option that evaluate it (`printf -v`), for messages. */
  builtin: string;
}

const ARITHMETIC_TESTS = /^-(?:eq|ne|lt|le|gt|ge)$/;
const DECLARATIONS = new Set(["declare", "typeset", "local", "export", "readonly"]);

/** The words of one command (name and arguments, wrappers removed) that bash evaluates. */
export function evaluatedWords(name: string, args: readonly string[]): EvaluatedWord[] {
  const at = (i: number, role: EvaluatedRole, builtin: string): EvaluatedWord[] =>
    args[i] === undefined ? [] : [{ text: args[i]!, role, builtin }];
  switch (name) {
    case "test":
    case "[":
    case "[[":
      return args.flatMap((a, i) => {
        if (a === "-v" || a === "-R") return at(i + 1, "varname", `${name} ${a}`);
        if (name === "[[" && ARITHMETIC_TESTS.test(a)) {
          return [...at(i - 1, "arith", `[[ ${a} ]]`), ...at(i + 1, "arith", `[[ ${a} ]]`)];
        }
        return [];
      });
    case "let":
      return args.map((text) => ({ text, role: "arith", builtin: "let" }));
    case "printf":
      return optionValues(args, "v", "").map((text) => ({ text, role: "varname", builtin: "printf -v" }));
    case "read":
      return [
        ...optionValues(args, "a", "dinNptu").map((text) => ({
          text,
          role: "varname" as const,
          builtin: "read -a",
        })),
        ...operandsAfter(args, "adinNptu").map((text) => ({
          text,
          role: "varname" as const,
          builtin: "read",
        })),
      ];
    case "mapfile":
    case "readarray":
      return [
        ...optionValues(args, "C", "cdnOsu").map((text) => ({
          text,
          role: "code" as const,
          builtin: `${name} -C`,
        })),
        ...optionValues(args, "O", "Ccdnsu").map((text) => ({
          text,
          role: "arith" as const,
          builtin: `${name} -O`,
        })),
        ...operandsAfter(args, "CcdnOsu").map((text) => ({ text, role: "varname" as const, builtin: name })),
      ];
    case "unset":
      return args.includes("-f")
        ? []
        : operandsAfter(args, "").map((text) => ({ text, role: "varname", builtin: "unset" }));
    case "wait":
      return optionValues(args, "p", "").map((text) => ({ text, role: "varname", builtin: "wait -p" }));
    case "getopts":
      return at(1, "varname", "getopts");
    default:
      return DECLARATIONS.has(name) ? declared(name, args) : [];
  }
}

/** `declare -i x='1+a[$(id)]'`, `local 'a[$(id)]'=1`, `declare -n r='a[$(id)]'`. */
function declared(name: string, args: readonly string[]): EvaluatedWord[] {
  const flags = args.filter((a) => /^[-+][a-zA-Z]+$/.test(a)).join("");
  const integer = /i/.test(flags);
  const reference = /n/.test(flags);
  return args.filter((a) => !/^[-+][a-zA-Z]*$/.test(a)).flatMap((a) => {
    const eq = a.indexOf("=");
    const target: EvaluatedWord = { text: eq === -1 ? a : a.slice(0, eq), role: "varname", builtin: name };
    if (eq === -1) return [target];
    const value = a.slice(eq + 1);
    if (integer) return [target, { text: value, role: "arith", builtin: `${name} -i` }];
    if (reference) return [target, { text: value, role: "varname", builtin: `${name} -n` }];
    return [target];
  });
}

/** Values of short option `letter` in the leading options (`-vNAME`, `-v NAME`); `others` take values too. */
function optionValues(args: readonly string[], letter: string, others: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--" || !a.startsWith("-") || a === "-") break;
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c !== letter && !others.includes(c)) continue;
      const value = j < a.length - 1 ? a.slice(j + 1) : args[++i];
      if (c === letter && value !== undefined) out.push(value);
      break;
    }
  }
  return out;
}

/** Operands after the leading options, where `valued` letters take a value. */
function operandsAfter(args: readonly string[], valued: string): string[] {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") return args.slice(i + 1);
    if (!a.startsWith("-") || a === "-") break;
    const letters = a.slice(1);
    const at = [...letters].findIndex((c) => valued.includes(c));
    if (at !== -1 && at === letters.length - 1) i++;
  }
  return args.slice(i);
}

/**
 * Why bash evaluating `text` in this role may run code, or undefined when it cannot: a plain name,
 * a name with a numeric subscript, or arithmetic of numbers and names.
 */
export function evaluationRisk(text: string, role: EvaluatedRole | "assign"): string | undefined {
  const shown = JSON.stringify(text);
  if (role === "code") return `runs ${shown} as shell code`;
  if (role === "arith") {
    return /[$`[]/.test(text)
      ? `bash evaluates ${shown} arithmetically: its subscripts and expansions run command substitutions`
      : undefined;
  }
  if (/^[A-Za-z_]\w*(?:\[(?:\d+|@|\*)\])?$/.test(text) || !/[[$`]/.test(text)) return undefined;
  return `bash evaluates the subscript of ${shown} arithmetically, which runs command substitutions in it`;
}

/**
 * The code of each command substitution (`$(...)`, backquotes) in text that bash will evaluate
 * later: literal text for the analyzer, but code for the shell.
 */
export function hiddenSubstitutions(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "`") {
      const end = text.indexOf("`", i + 1);
      if (end === -1) break;
      out.push(text.slice(i + 1, end));
      i = end;
    } else if (text.startsWith("$(", i) && !text.startsWith("$((", i)) {
      const end = closing(text, i + 2);
      out.push(text.slice(i + 2, end));
      i = end;
    }
  }
  return out;
}

/** Index of the `)` closing a `$(` opened before `from` (quotes skipped), or the end. */
function closing(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end === -1) return text.length;
      i = end;
    } else if (c === "\\") i++;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return text.length;
}
