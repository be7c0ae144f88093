/**
 * Two parser-free readers. `plainWords` recognises commands that are provably a list of plain words
 * (the tree-sitter walk would give the same single command), so they skip loading the WASM parser.
 * `conservativeSplit` is the fallback when the parser cannot be loaded: a rough split that only
 * feeds deny rules and catastrophe detection, since its results can only ever ask.
 */
import { CLOSE, COMMA, expandBraces, OPEN } from "./braces.ts";
import { plainWord, type RawCommand, type WalkResult, type Word } from "./command.ts";
import type { Redirect } from "./types.ts";

/** Single spaces between words made of characters that are never special to bash or zsh. */
const PLAIN = /^[A-Za-z0-9_./:@+-][A-Za-z0-9_./:@%+,=-]*(?: [A-Za-z0-9_./:@%+,=-]+)*$/;
const RESERVED = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "for",
  "while",
  "until",
  "do",
  "done",
  "case",
  "esac",
  "select",
  "function",
  "time",
  "coproc",
  "in",
]);

/** The command as plain words, or null when it needs the real parser. */
export function plainWords(command: string): WalkResult | null {
  if (command.length > 4096 || !PLAIN.test(command)) return null;
  const words = command.split(" ");
  const first = words[0]!;
  if (first.includes("=") || RESERVED.has(first)) return null;
  const raw: RawCommand = {
    words: words.map(plainWord),
    assignments: [],
    redirects: [],
    pipe: 0,
    stage: 0,
    stages: 1,
    subs: [],
  };
  return { commands: [raw], complex: [] };
}

const OPERATORS = ["&&", "||", "|&", ";;", "|", ";", "&", "\n", "(", ")"];
const OPERATOR_START = new Set(OPERATORS.map((o) => o[0]!));
const REDIRECT = /^(\d*)(>>|>&|>\||>|<<<|<<-|<<|<>|<&|<|&>>|&>)/;
const REDIRECT_START = /[\d<>&]/;

/** Fallback split when tree-sitter is unavailable; the caller marks the result parse-unavailable. */
export function conservativeSplit(command: string): WalkResult {
  const commands: RawCommand[] = [];
  const complex = new Set<string>();
  let words: Word[] = [];
  let redirects: Redirect[] = [];
  let pendingRedirect: string | null = null;
  let pipe = 0;
  let stage = 0;
  let word: Word | null = null;

  const endWord = () => {
    if (!word) return;
    const [first = "", ...more] = expandBraces(word.text);
    if (pendingRedirect !== null) {
      redirects.push({ op: pendingRedirect, target: first });
      pendingRedirect = null;
    } else words.push(...[first, ...more].map((text) => ({ ...word!, text })));
    word = null;
  };
  const endCommand = (op: string) => {
    endWord();
    if (words.length > 0 || redirects.length > 0) {
      commands.push({ words, assignments: [], redirects, pipe, stage, stages: 1, subs: [] });
    }
    words = [];
    redirects = [];
    if (op === "|" || op === "|&") {
      if (stage === 0) pipe = commands.length;
      stage++;
    } else stage = 0;
  };
  const current = (): Word => (word ??= { text: "", quoted: false, glob: false, dynamic: false });

  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    const op = OPERATOR_START.has(c) ? OPERATORS.find((o) => command.startsWith(o, i)) : undefined;
    if (op) {
      if (op === "(" || op === ")") complex.add("subshell or grouping");
      endCommand(op);
      i += op.length - 1;
      continue;
    }
    if (c === " " || c === "\t") {
      endWord();
      continue;
    }
    const redirect = word === null && REDIRECT_START.test(c) ? REDIRECT.exec(command.slice(i, i + 8)) : null;
    if (redirect) {
      endWord();
      pendingRedirect = redirect[0];
      i += redirect[0].length - 1;
      continue;
    }
    const w = current();
    if (c === "\\") {
      w.text += command[++i] ?? "";
    } else if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      if (end === -1) {
        complex.add("unterminated quote");
        w.text += command.slice(i + 1);
        i = command.length;
      } else {
        const inner = command.slice(i + 1, end);
        if (c === '"' && /[$`]/.test(inner)) w.dynamic = true;
        w.text += inner;
        i = end;
      }
      w.quoted = true;
    } else {
      if (c === "$" || c === "`") w.dynamic = true;
      if (c === "*" || c === "?" || c === "[") w.glob = true;
      // Unquoted braces and commas take part in brace expansion (`{rm,-rf,/}`).
      w.text += c === "{" ? OPEN : c === "," ? COMMA : c === "}" ? CLOSE : c;
    }
  }
  endCommand(";");
  const pipeSizes = new Map<number, number>();
  for (const cmd of commands) pipeSizes.set(cmd.pipe, (pipeSizes.get(cmd.pipe) ?? 0) + 1);
  for (const cmd of commands) {
    cmd.stages = cmd.pipe === 0 ? 1 : pipeSizes.get(cmd.pipe)!;
    const leading = cmd.words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text));
    const assigned = leading === -1 ? cmd.words : cmd.words.slice(0, leading);
    cmd.assignments = assigned.map((w) => ({
      name: w.text.split("=")[0]!,
      value: w.text.slice(w.text.indexOf("=") + 1),
    }));
    cmd.words = cmd.words.slice(assigned.length);
    if (cmd.words.some((w) => w.dynamic)) complex.add("substitution or expansion");
  }
  return { commands, complex: [...complex] };
}
