/**
 * Words known only when the command runs (`$x` never assigned, `$(cmd)`, what xargs appends), read
 * the way an attacker would use them: each may be any words or none. What rules would see then
 * (`open`), and what no wildcard can picture (`opaqueParts`): a command name, a script or inline code
 * that is only known at run time.
 *
 * ```ts
 * openWords(["git", "$(cat f)", "--force"], (w) => w.startsWith("$")); // "git*--force"
 * ```
 */
import type { Judged, Word } from "./command.ts";
import { meaningTexts } from "./command-meaning.ts";
import { SHELLS } from "./wrappers.ts";

/**
 * The words joined with one space, each open word as `*` with no space around it: an open word
 * may stand for several words or for none (`git $EMPTY push` is `git push`).
 */
export function openWords(
  words: readonly string[],
  isOpen: (word: string, index: number) => boolean,
): string {
  let out = "";
  let previousOpen = true;
  words.forEach((word, i) => {
    const open = isOpen(word, i);
    if (open) out += "*";
    else out += `${previousOpen ? "" : " "}${word}`;
    previousOpen = open;
  });
  return out;
}

/**
 * `ruleText` and argv with the open words as `*`: words with a value known only at run time, the
 * `{}` that find fills with file names, and a tail for the arguments xargs reads from its input;
 * and what the command does so read (`meaningTexts`). Undefined when every word is known.
 */
export function openTexts(
  j: Pick<Judged, "words" | "raw">,
  ruleWords: readonly string[],
  argv: readonly string[],
  via: string | undefined,
): { ruleText: string; argv: string; meanings: string[] } | undefined {
  const runtime = new Set([...j.words, ...j.raw.words].filter((w) => w.dynamic).map((w) => w.text));
  const filled = via?.startsWith("find -") ?? false;
  const appended = via === "xargs";
  if (runtime.size === 0 && !appended && !(filled && ruleWords.some((w) => w.includes("{}")))) {
    return undefined;
  }
  const isOpen = (word: string) => runtime.has(word) || (filled && word.includes("{}"));
  const tail = appended ? "*" : "";
  // What it does with each open word as one `*` word (`npm --registry=x "$(cat f)"` is `npm *`).
  const starred = ruleWords.map((w) => (isOpen(w) ? "*" : w));
  const meanings = meaningTexts(appended ? [...starred, "*"] : starred);
  return { ruleText: openWords(ruleWords, isOpen) + tail, argv: openWords(argv, isOpen) + tail, meanings };
}

/**
 * Why no wildcard can picture what this command runs: its name, the script a shell or `source`
 * reads, or an interpreter's inline code is known only when it runs.
 */
export function opaqueParts(j: Judged): string[] {
  const name = j.words[0];
  if (name?.dynamic) return [`${name.text} runs a command whose name is known only when it runs`];
  const runtime = j.words.slice(1).filter((w) => w.dynamic);
  if (runtime.length > 0 && (SHELLS.has(j.name) || j.name === "source" || j.name === ".")) {
    return [`${j.name} runs shell code from ${runtime[0]!.text}, known only when it runs`];
  }
  const file = scriptFile(j);
  if (file !== undefined) return [`${j.name} runs the shell code in ${file}, known only when it runs`];
  if (runtime.length === 0) return [];
  const code = j.inline;
  const inCode = code ? runtime.find((w) => w.text !== "" && code.includes(w.text)) : undefined;
  return inCode ? [`${j.name} runs inline code holding ${inCode.text}, known only when it runs`] : [];
}

/**
 * The file of shell code a shell or `source` reads (`source t.sh`, `bash t.sh`): what it holds
 * is known only when it runs. Not `/dev/stdin`, whose code is judged as the command's input.
 */
function scriptFile(j: Judged): string | undefined {
  if (j.name === "source" || j.name === ".") return j.args[0] === "/dev/stdin" ? undefined : j.args[0];
  if (!SHELLS.has(j.name)) return undefined;
  for (let i = 0; i < j.args.length; i++) {
    const a = j.args[i]!;
    if (a === "--") return j.args[i + 1];
    if (/^-[a-zA-Z]*[cs]/.test(a)) return undefined;
    if (a === "-o" || a === "+o" || a === "-O" || a === "+O") {
      i++;
      continue;
    }
    if (!/^[-+]/.test(a)) return a === "/dev/stdin" ? undefined : a;
  }
  return undefined;
}

/** A word with its unknown parts (`$x`, `${x%y}`, `$(cmd)`, `` `cmd` ``) replaced by `value`. */
export function withValue(word: Word, value: string): Word[] {
  const text = textWithValue(word.text, value);
  if (text === word.text) return [word];
  // Unquoted, bash splits the value into fields: `rm $opts` may be `rm -rf /`.
  if (!word.quoted && /\s/.test(value)) {
    return text.split(/\s+/).filter((t) => t !== "").map((t) => ({ ...word, text: t }));
  }
  return [{ ...word, text }];
}

/** `text` with its unknown parts replaced by `value`. */
export function textWithValue(text: string, value: string): string {
  return text.replace(UNKNOWN_PART, (part) => (KNOWN_MEANING.test(part) ? part : value));
}

/** Whether `text` holds a part the walker could not know (`$x`, `$(cmd)`). */
export function hasUnknownPart(text: string): boolean {
  return new RegExp(UNKNOWN_PART.source).test(text);
}

/** What the walker keeps as written when it cannot know the value. */
const UNKNOWN_PART =
  /\$\{[^}]*\}|\$\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)|`[^`]*`|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]/g;
/** Variables whose meaning the catastrophe table already works out (`$HOME` is `~`). */
const KNOWN_MEANING = /^\$\{?(?:HOME|PWD|OLDPWD)\}?$/;
