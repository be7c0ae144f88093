/**
 * What a question asks for beyond its words: "is the build green?" asks for the build's status,
 * not for something green; "who changed the priority?" for a history, audit trail or events;
 * "where is the config file?" for a search. Read from the question word and the words after it;
 * only the index's own terms come back.
 */
import type { QueryGroup, SearchIndex, WeightedTerm } from "./index.ts";
import { stem } from "./tokenize.ts";

/** Words that open a yes/no question: "is it …", "did the job …". */
const YES_NO = new Set("is are was were has have had did does do".split(" "));

/** Words that, in a yes/no question, name a state rather than an action ("is the PR open?"). */
const STATES = new Set(
  ("open closed merged green red passing passed failing failed broken healthy unhealthy done finished running " +
    "ready live up down stuck complete completed active pending succeeded successful blocked breached enabled " +
    "disabled on off")
    .split(" "),
);

/** What a state word stands for in a yes/no question, with how much each counts. */
const STATE_TERMS: readonly WeightedTerm[] = [
  { term: stem("status"), weight: 1 },
  { term: stem("state"), weight: 0.8 },
  { term: stem("health"), weight: 0.6 },
];

/** How much the state word itself still counts ("open" issues do exist). */
const STATE_WORD_WEIGHT = 0.5;

/** Question words that ask who or when something was done, or what was. */
const HISTORY_QUESTIONS = new Set(["who", "when", "what"]);

/** Verbs of a change, in the forms a question about the past uses ("who deleted", "what happened"). */
const CHANGES = new Set(
  ("changed modified edited updated deleted removed touched made happened flipped toggled did wrote created " +
    "added moved renamed destroyed dropped turned switched set disabled enabled")
    .split(" "),
);

/** What a question about a past change asks for. */
const HISTORY_TERMS: readonly WeightedTerm[] = [
  { term: stem("history"), weight: 1 },
  { term: stem("audit"), weight: 0.8 },
  { term: stem("activity"), weight: 0.8 },
  { term: stem("events"), weight: 0.7 },
  { term: stem("log"), weight: 0.6 },
  // Who changed a line: its blame.
  { term: stem("blame"), weight: 0.8 },
];

/** What "where is …" asks for: a search, or the places that refer to it. */
const PLACE_TERMS: readonly WeightedTerm[] = [
  { term: stem("search"), weight: 0.7 },
  { term: stem("find"), weight: 0.7 },
  { term: stem("locate"), weight: 0.6 },
  { term: stem("references"), weight: 0.6 },
];

/** Words before the question word of an indirect question ("can you tell me who …"). */
const LEAD_IN = new Set("can could you please tell me show find out i want to know".split(" "));

/** The index of the question word and the word itself, or -1 when the words ask no question. */
function questionWord(words: readonly string[]): { at: number; word: string } {
  for (let at = 0; at < words.length; at++) {
    const word = words[at]!;
    if (YES_NO.has(word) || HISTORY_QUESTIONS.has(word) || word === "where") return { at, word };
    if (!LEAD_IN.has(word)) break;
  }
  return { at: -1, word: "" };
}

/** The terms a state word of a yes/no question stands for, or undefined when it is no such word. */
export function stateTerms(words: readonly string[], at: number, index: SearchIndex): QueryGroup | undefined {
  const question = questionWord(words);
  if (question.at < 0 || !YES_NO.has(question.word) || at <= question.at) return undefined;
  if (!STATES.has(words[at]!)) return undefined;
  const own = { term: stem(words[at]!), weight: STATE_WORD_WEIGHT };
  return [...STATE_TERMS, own].filter(({ term }) => index.hasTerm(term));
}

/**
 * A group the question asks for without naming it (a history, a search) and the index of the
 * question word it comes from, or undefined.
 */
export function questionGroup(
  words: readonly string[],
  index: SearchIndex,
): { group: QueryGroup; at: number } | undefined {
  const { at, word } = questionWord(words);
  if (at < 0) return undefined;
  let terms: readonly WeightedTerm[] | undefined;
  if (word === "where") terms = PLACE_TERMS;
  else if (HISTORY_QUESTIONS.has(word) && words.slice(at + 1, at + 3).some((next) => CHANGES.has(next))) {
    terms = HISTORY_TERMS;
  }
  const known = terms?.filter(({ term }) => index.hasTerm(term));
  return known && known.length > 0 ? { group: known, at } : undefined;
}
