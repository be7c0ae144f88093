/**
 * What a request asks to do, apart from what it asks it of: "open a PR" creates, "who deleted my
 * bucket" looks something up, "is the build green" reads a status. Actions are classes of verbs,
 * the same lexicon read on both sides: a tool's name verb ("get_file_contents" reads) and the
 * leading verb or question form of the query. A set of classes is a bit mask.
 */
import { stem } from "./tokenize.ts";

const ACTIONS = [
  "create",
  "read",
  "list",
  "search",
  "update",
  "delete",
  "send",
  "run",
  "stop",
] as const;
export type Action = typeof ACTIONS[number];

export function actionBit(action: Action): number {
  return 1 << ACTIONS.indexOf(action);
}

/** Reading, listing and searching answer the same kind of question: near misses, not conflicts. */
export const LOOKUP = actionBit("read") | actionBit("list") | actionBit("search");

/** Verbs of each class; a verb may belong to several ("post" a page creates, "post" a message sends). */
const VERBS: Record<Action, string> = {
  create: "create add new make insert register declare provision generate open write append post put fork " +
    "clone draft compose raise spin build upload attach",
  read: "get read retrieve describe fetch show view open inspect whoami check explain download display see " +
    "lookup look tell",
  list: "list enumerate browse show",
  search: "search find query lookup look locate discover filter",
  update: "update edit modify patch set change rename move assign transition mark toggle resolve configure " +
    "replace put bump rotate enable disable turn switch upgrade reset protect unprotect label tag merge " +
    "approve close reopen",
  delete: "delete remove drop destroy purge erase clear uninstall detach unlink wipe forget trash",
  send: "send post push broadcast reply notify message publish ping dm announce share email",
  run: "run execute exec trigger start launch invoke evaluate apply rerun deploy kick call perform",
  stop: "stop cancel kill terminate abort halt pause",
};

const ACTIONS_OF_STEM: ReadonlyMap<string, number> = (() => {
  const table = new Map<string, number>();
  for (const action of ACTIONS) {
    for (const verb of VERBS[action].split(" ")) {
      const key = stem(verb);
      table.set(key, (table.get(key) ?? 0) | actionBit(action));
    }
  }
  return table;
})();

/** The action classes of a stemmed term, 0 when it is no verb of the lexicon. */
export function actionsOfTerm(term: string): number {
  return ACTIONS_OF_STEM.get(term) ?? 0;
}

/** Words that open a question: the request reads, lists or searches, whatever verb follows. */
const QUESTION_WORDS = new Set(
  "what which who whom whose how is are was were does do did has have any where when why whats".split(" "),
);

/** Words before the verb of a polite or indirect request ("could you please …", "I need to …"). */
const LEAD_IN = new Set(
  "please can could would will you i we let lets let's me us just need want wanna to help go ahead now quickly"
    .split(" "),
);

export interface Intent {
  /** Action classes asked for, 0 when the request names none. */
  actions: number;
  /** Index in the words of the verb or question word that carries the action, -1 for none. */
  at: number;
}

/**
 * The action of a request from its lower-case words: a leading question word means a lookup;
 * otherwise the first word after the lead-in ("can you", "please", "I need to"), if it is a verb.
 */
export function queryIntent(words: readonly string[]): Intent {
  for (let at = 0; at < words.length; at++) {
    const word = words[at]!;
    // "can you …" asks for an action, "can this role …" asks a question.
    if ((word === "can" || word === "could") && words[at + 1] !== "you") return { actions: LOOKUP, at };
    if (LEAD_IN.has(word)) continue;
    if (QUESTION_WORDS.has(word)) return { actions: LOOKUP, at };
    const actions = actionsOfTerm(stem(word));
    return actions === 0 ? { actions: 0, at: -1 } : { actions, at };
  }
  return { actions: 0, at: -1 };
}

/** The action classes of a tool from its name's stemmed terms: its first verb. */
export function nameActions(terms: Iterable<string>): number {
  for (const term of terms) {
    const actions = actionsOfTerm(term);
    if (actions !== 0) return actions;
  }
  return 0;
}

/**
 * How well a tool's action fits the request's: 1 for a shared class, 0.5 between lookups, -1 for
 * a conflict (a question answered by a delete tool), 0 when either side names no action.
 */
export function actionFit(query: number, tool: number): number {
  if (query === 0 || tool === 0) return 0;
  if ((query & tool) !== 0) return 1;
  if ((query & LOOKUP) !== 0 && (tool & LOOKUP) !== 0) return 0.5;
  return -1;
}
