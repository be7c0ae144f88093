/**
 * Words of the tools' that a query word derives from or is derived from, beyond what stemming
 * joins: "watch" meets `add_watcher`, "subfolder" a folder, "not staged" `git_diff_unstaged`. Only
 * the index's own words come back, so a form no tool uses costs nothing; a word the tools use is
 * not taken apart ("browser" is no "browse", "container" no "contain").
 */
import type { SearchIndex } from "./index.ts";

/** The doer's endings, which Porter's stemmer keeps: a watcher watches, an editor edits. */
const SUFFIXES = ["er", "ers", "or", "ors"];

/** Prefixes that leave the head word naming the same kind of thing: a subfolder is a folder. */
const PREFIXES = ["sub", "multi", "pre", "re"];

/** Words before another that make a tools' `un-` word of it: "not staged" is `unstaged`. */
const NEGATIONS = new Set(["not", "no", "non", "never"]);

/** Shortest word taken as one half of a compound. */
const MIN_PART = 3;

/**
 * The tools' `un-` word for `words[at]` when a negation stands before it ("not staged": unstaged),
 * if the tools use one: what the request means, rather than the word typed.
 */
export function negatedTerm(words: readonly string[], at: number, index: SearchIndex): string | undefined {
  return NEGATIONS.has(words[at - 1] ?? "") ? index.surfaceWords.get(`un${words[at]}`) : undefined;
}

/** Stemmed terms of the index related to `words[at]` by derivation or compounding. */
export function derivedTerms(words: readonly string[], at: number, index: SearchIndex): string[] {
  const word = words[at]!;
  const known = index.surfaceWords;
  const forms = [...doers(word)];
  if (!known.has(word)) forms.push(...roots(word), ...compoundParts(word, known));
  const own = known.get(word);
  const terms = new Set<string>();
  for (const form of forms) {
    const term = known.get(form);
    if (term !== undefined && term !== own) terms.add(term);
  }
  return [...terms];
}

/** Who does what the word names: "watch" → "watcher", "subscribe" → "subscriber". */
function* doers(word: string): Generator<string> {
  const base = word.endsWith("e") ? word.slice(0, -1) : word;
  for (const suffix of SUFFIXES) yield base + suffix;
}

/** What a doer does: "approver" → "approve". */
function* roots(word: string): Generator<string> {
  for (const suffix of SUFFIXES) {
    if (word.length > suffix.length + MIN_PART && word.endsWith(suffix)) {
      const root = word.slice(0, -suffix.length);
      yield root;
      yield `${root}e`;
    }
  }
}

/** The halves of a word the tools write apart ("subfolder": folder; "codebase": code, base). */
function compoundParts(word: string, known: ReadonlyMap<string, string>): string[] {
  const parts: string[] = [];
  for (const prefix of PREFIXES) {
    if (word.startsWith(prefix) && word.length - prefix.length >= MIN_PART) {
      parts.push(word.slice(prefix.length));
    }
  }
  for (let cut = MIN_PART; cut <= word.length - MIN_PART; cut++) {
    const left = word.slice(0, cut);
    if (PREFIXES.includes(left)) continue;
    const right = word.slice(cut);
    if (known.has(left) && known.has(right)) parts.push(left, right);
  }
  return parts;
}
