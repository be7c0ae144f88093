/**
 * Grammatical number: does a request want one thing or many, and does a tool give one or many?
 * "the issue #42" wants `get_issue`, "my issues" `list_issues`, "100 messages at once"
 * `queue_send_batch`. Read on both sides from plain signs: plural nouns, quantifiers and list
 * verbs say many; identifiers (ids, keys, versions, URLs, e-mails) and a singular noun after
 * "the", "this" or "that" say one. Signs are counted, so a request with both says neither.
 */
import { isIdentifier } from "./identifiers.ts";
import { actionBit, actionsOfTerm } from "./intent.ts";
import { stem } from "./tokenize.ts";

export const ONE = -1;
export const MANY = 1;

/** Words that ask for many whatever noun follows. */
const QUANTIFIERS = new Set(
  "all every each many multiple several bulk batch various".split(" "),
);

/** Name verbs that give many: a list or a search returns a collection. */
const MANY_ACTIONS = actionBit("list") | actionBit("search");

/** Endings of singular words that look plural. */
const SINGULAR_ENDINGS = ["ss", "us", "is", "ous"];

/** Words ending in s that are no plural noun. */
const NOT_PLURAL = new Set("does goes news yes always perhaps sometimes".split(" "));

/** Nouns that name an aspect of the tool's object, not the object: `get_file_contents` gives one file. */
const ASPECTS = new Set(
  "details detail contents content info information settings config configuration status health data metadata summary history"
    .split(" "),
);

/** A lower-case word that is an English plural: "issues", "entries", not "status" or "access". */
export function isPlural(word: string): boolean {
  if (word.length < 4 || !word.endsWith("s") || NOT_PLURAL.has(word)) return false;
  if (SINGULAR_ENDINGS.some((ending) => word.endsWith(ending))) return false;
  return stem(word) === stem(word.slice(0, -1)) || word.endsWith("ies");
}

/**
 * The number of a tool from the lower-case words of its name: many for a list or search verb or a
 * quantifier (`batch`, `many`), else the number of its last noun that is no aspect
 * (`get_project_issues` many, `get_file_contents` one), 0 for a name with no such noun.
 */
export function toolNumber(words: readonly string[]): number {
  let last = "";
  for (const word of words) {
    if (QUANTIFIERS.has(word)) return MANY;
    const actions = actionsOfTerm(stem(word));
    if ((actions & MANY_ACTIONS) !== 0) return MANY;
    if (actions === 0 && !ASPECTS.has(word)) last = word;
  }
  if (last === "") return 0;
  return isPlural(last) ? MANY : ONE;
}

/** A bare number or version: an id after a singular noun ("PR 88"), a count before a plural ("5 replicas"). */
const NUMBER = /^\d[\d.]*$/;

/**
 * What the request asks for from its raw text: `MANY`, `ONE` or 0. Each sign counts one:
 * quantifiers, plural nouns and numbers before a plural for many; identifiers, numbers after a
 * singular noun and "the/this/that" before a singular noun for one.
 */
export function queryNumber(text: string): number {
  const tokens = text.toLowerCase().split(/\s+/)
    .map((token) => token.replace(/^[("'`]+|[)"'`?!.,;]+$/g, "").replace(/'.*$/, ""))
    .filter((token) => token.length > 0);
  let sum = 0;
  tokens.forEach((token, at) => {
    const before = tokens[at - 1] ?? "";
    const after = tokens[at + 1] ?? "";
    if (NUMBER.test(token)) {
      if (isPlural(after)) sum += MANY;
      else if (/^[a-z]+$/.test(before) && !isPlural(before)) sum += ONE;
    } else if (isIdentifier(token)) {
      sum += ONE;
    } else if ((QUANTIFIERS.has(token) && before !== "how") || (isPlural(token) && !ASPECTS.has(token))) {
      sum += MANY;
    }
  });
  return Math.sign(sum);
}
