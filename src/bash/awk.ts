/**
 * What an awk program does besides reading its input, read from its tokens rather than by a regex
 * over its text: line continuations are joined, strings, regular expressions and comments are set
 * aside, so `print "a>b"` is not a redirection and `system\<newline>("id")` is still system().
 *
 * ```ts
 * awkProgramRisk('{print $1}');                 // {}
 * awkProgramRisk('BEGIN{system\\\n("id")}').unsafe; // "the awk program runs commands (system())"
 * ```
 */

/** An awk command line: its program text (an operand, or gawk's `-e`/`--source` parts). */
export interface AwkCall {
  programs: string[];
  /** `-f FILE` (or `--file`): a program file that cannot be read here. */
  programFile: boolean;
  /** The first option that is not `-F`, `-v` or a program, when there is one. */
  otherOption?: string;
}

/** `--sou` is `--source`: gawk, like getopt_long, accepts any unique abbreviation. */
const abbreviates = (arg: string, full: string, shortest: number) =>
  arg.length >= shortest + 2 && `--${full}`.startsWith(arg);

/** Reads awk's arguments the way gawk and mawk do (options first; `--` ends them). */
export function readAwk(args: readonly string[]): AwkCall {
  const call: AwkCall = { programs: [], programFile: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const [name, value] = a.startsWith("--") && a.includes("=")
      ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
      : [a, undefined];
    if (a === "--") {
      if (call.programs.length === 0 && !call.programFile && args[i + 1] !== undefined) {
        call.programs.push(args[i + 1]!);
      }
      return call;
    }
    if (name === "-e" || abbreviates(name, "source", 2)) call.programs.push(value ?? args[++i] ?? "");
    else if (name === "-f" || abbreviates(name, "file", 2)) {
      call.programFile = true;
      if (value === undefined) i++;
    } else if (
      /^-[Fv]$/.test(a) || abbreviates(name, "field-separator", 2) || abbreviates(name, "assign", 1)
    ) {
      if (value === undefined) i++;
    } else if (/^-[Fv]./.test(a)) continue;
    else if (a.startsWith("-") && a !== "-") call.otherOption ??= a;
    else {
      if (call.programs.length === 0 && !call.programFile) call.programs.push(a);
      return call;
    }
  }
  return call;
}

export interface AwkRisk {
  /** Why the program runs other programs or writes files (no prefix rule may cover it). */
  unsafe?: string;
  /** Why it is not read-only otherwise (it reads files not named, or changes which it reads). */
  problem?: string;
}

/** The program's code with continuations joined and strings, regexes and comments blanked out. */
export function awkCode(program: string): string {
  const text = program.replace(/\\\r?\n/g, "");
  let out = "";
  let last = ""; // last significant character, to tell a regex `/` from a division
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || (c === "/" && REGEX_CAN_START.test(last))) {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      out += `${c}${c}`;
      i = j;
      last = "x";
      continue;
    }
    if (c === "#") {
      const end = text.indexOf("\n", i);
      i = end === -1 ? text.length : end - 1;
      continue;
    }
    out += c;
    if (!/\s/.test(c)) last = c;
  }
  return out;
}

/** After these (or at the start), `/` opens a regular expression rather than dividing. */
const REGEX_CAN_START = /^$|[(,{;!~&|?:=<>+\-*%^\n]$/;

/** What the program does besides reading its input and printing to standard output. */
export function awkProgramRisk(program: string): AwkRisk {
  const code = awkCode(program);
  if (/\bsystem\s*\(/.test(code)) return { unsafe: "the awk program runs commands (system())" };
  // gawk's indirect calls (`@f()`) and extensions (`@load`) can run anything.
  if (/@\s*[A-Za-z_]/.test(code)) {
    return { unsafe: "the awk program calls functions by name or loads extensions (@)" };
  }
  if (/\|&|\|\s*getline\b/.test(code)) {
    return { unsafe: "the awk program runs a command and reads its output" };
  }
  for (const statement of code.split(/[;{}\n]/)) {
    const print = /\bprintf?\b/.exec(statement);
    if (!print) continue;
    const rest = statement.slice(print.index).replace(/\|\|/g, "");
    if (/\|/.test(rest)) return { unsafe: "the awk program pipes its output to a command (print |)" };
    if (/>/.test(rest.replace(/\([^()]*\)/g, ""))) {
      return { unsafe: "the awk program writes to a file (print >)" };
    }
  }
  if (/\bgetline\b/.test(code)) {
    return { problem: "the awk program reads files with getline that are not named as operands" };
  }
  if (/\bclose\s*\(|\bfflush\s*\(\s*[^)\s]/.test(code)) {
    return { problem: "the awk program closes or flushes files and commands" };
  }
  if (/\bARG[VC]\b/.test(code)) return { problem: "the awk program changes which files it reads (ARGV)" };
  return {};
}
