/**
 * sed validation by whitelist. Read-only sed is line printing and substitution with harmless
 * flags; anything else (w/W/e/r commands or flags, `!`, `{}` blocks, labels, odd delimiters,
 * non-ASCII text) is not read-only, and writing or executing forms cannot be prefix-allowed.
 */
import type { Access } from "./paths.ts";

export interface SedInvocation {
  scripts: string[];
  scriptFiles: string[];
  files: string[];
  inPlace: boolean;
  quiet: boolean;
}

export interface SedVerdict {
  /** Every script is on the whitelist. */
  valid: boolean;
  /** Why the script writes files or runs commands, when it does. */
  danger: string | null;
  /** Files written by `w FILE` commands or flags. */
  writes: string[];
  /** It runs commands (`e`, the `e` flag, a script file): what they are is not read. */
  runs?: boolean;
}

/** Reads sed's arguments (GNU and BSD forms: `-i`, `-i.bak`, `-i ''`, `--in-place=SUFFIX`). */
export function parseSed(args: string[]): SedInvocation {
  const out: SedInvocation = { scripts: [], scriptFiles: [], files: [], inPlace: false, quiet: false };
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a === "-e" || a === "--expression") out.scripts.push(args[++i] ?? "");
    else if (a.startsWith("--expression=")) out.scripts.push(a.slice(13));
    else if (a === "-f" || a === "--file") out.scriptFiles.push(args[++i] ?? "");
    else if (a.startsWith("--file=")) out.scriptFiles.push(a.slice(7));
    else if (a === "-n" || a === "--quiet" || a === "--silent") out.quiet = true;
    else if (a.startsWith("-i") || a.startsWith("--in-place")) {
      out.inPlace = true;
      if (a === "-i" && args[i + 1] === "") i++;
    } else if (/^-[A-Za-z]+$/.test(a)) {
      for (const flag of a.slice(1)) {
        if (flag === "n") out.quiet = true;
        if (flag === "i") {
          out.inPlace = true;
          break;
        }
        if (flag === "e") out.scripts.push(args[++i] ?? "");
        if (flag === "f") out.scriptFiles.push(args[++i] ?? "");
        if (flag === "l") i++;
      }
    } else if (a.startsWith("-") && a !== "-") continue;
    else operands.push(a);
  }
  if (out.scripts.length === 0 && out.scriptFiles.length === 0) out.scripts.push(operands.shift() ?? "");
  out.files = operands;
  return out;
}

const SUBSTITUTE_DELIMITERS = "/|#,:@%+_=~";
const SIMPLE_COMMANDS = "pdqQl=nN";

/** Checks every script of one sed invocation against the whitelist. */
export function validateSed(sed: SedInvocation): SedVerdict {
  const verdict: SedVerdict = { valid: sed.scriptFiles.length === 0, danger: null, writes: [] };
  if (sed.scriptFiles.length > 0) {
    verdict.danger = "sed -f runs a script file that cannot be checked";
    verdict.runs = true;
  }
  for (const script of sed.scripts) checkScript(script, verdict);
  return verdict;
}

function checkScript(script: string, verdict: SedVerdict): void {
  // deno-lint-ignore no-control-regex
  if (/[^\x09\x0A\x20-\x7E]/.test(script)) verdict.valid = false;
  let i = 0;
  const n = script.length;
  const skipSpace = () => {
    while (i < n && /[\s;]/.test(script[i]!)) i++;
  };
  const address = (): boolean => {
    if (/\d/.test(script[i] ?? "")) {
      while (/[\d~]/.test(script[i] ?? "")) i++;
      return true;
    }
    if (script[i] === "$") {
      i++;
      return true;
    }
    if (script[i] === "/") {
      i = delimited(script, i + 1, "/");
      if (script[i] === "I" || script[i] === "M") i++;
      return i <= n;
    }
    return false;
  };
  for (skipSpace(); i < n; skipSpace()) {
    if (address() && script[i] === ",") {
      i++;
      address();
    }
    const command = script[i++];
    if (command === undefined) return;
    if (SIMPLE_COMMANDS.includes(command)) continue;
    if (command === "s" || command === "y") {
      const delimiter = script[i] ?? "";
      if (!SUBSTITUTE_DELIMITERS.includes(delimiter) || delimiter === "") {
        verdict.valid = false;
        return;
      }
      i = delimited(script, delimited(script, i + 1, delimiter), delimiter);
      if (i > n) {
        verdict.valid = false;
        return;
      }
      if (command === "s") i = substituteFlags(script, i, verdict);
      continue;
    }
    verdict.valid = false;
    if (command === "w" || command === "W") {
      verdict.danger = "the sed script writes a file (w)";
      verdict.writes.push(script.slice(i).split("\n")[0]!.trim());
    } else if (command === "e") {
      verdict.danger = "the sed script runs shell commands (e)";
      verdict.runs = true;
    } else if (command === "r" || command === "R") verdict.danger ??= "the sed script reads another file (r)";
    if (verdict.danger !== null) return;
    // Not whitelisted, but the rest is still read for e and w: `{`, `}` and `!` only group or
    // negate; text and label commands (a, i, c, b, t, T, :) run to the end of their line.
    if (TO_END_OF_LINE.includes(command)) {
      i = script.indexOf("\n", i);
      if (i === -1) return;
    }
  }
}

const TO_END_OF_LINE = "aicbtT:";

/** Index just past the next unescaped `delimiter`, or n+1 when there is none. */
function delimited(script: string, from: number, delimiter: string): number {
  for (let i = from; i < script.length; i++) {
    if (script[i] === "\\") i++;
    else if (script[i] === delimiter) return i + 1;
  }
  return script.length + 1;
}

function substituteFlags(script: string, from: number, verdict: SedVerdict): number {
  let i = from;
  while (i < script.length && !/[\s;}]/.test(script[i]!)) {
    const flag = script[i]!;
    if (/[gpiImM0-9]/.test(flag)) {
      i++;
      continue;
    }
    verdict.valid = false;
    if (flag === "w" || flag === "W") {
      verdict.danger = "the sed substitution writes a file (w flag)";
      verdict.writes.push(script.slice(i + 1).split("\n")[0]!.trim());
    } else if (flag === "e" || flag === "E") {
      verdict.danger = "the sed substitution runs its result as a command (e flag)";
      verdict.runs = true;
    }
    return script.length;
  }
  return i;
}

/** Paths for the path layer: files are read, or written with -i; `w FILE` targets are written. */
export function sedAccess(args: string[]): Access[] {
  const sed = parseSed(args);
  const access = sed.inPlace ? "write" : "read";
  return [
    ...sed.scriptFiles.map((path): Access => ({ path, access: "read" })),
    ...sed.files.map((path): Access => ({ path, access })),
    ...validateSed(sed).writes.map((path): Access => ({ path, access: "write" })),
  ];
}
