/**
 * Query text → query groups: one group per word the model typed, holding the word's term and,
 * layer by layer, the terms that may stand for it (hand-written synonyms, typo
 * corrections, words joined across a space). Each layer can be switched off to measure its gain.
 */
import type { QueryGroup, SearchIndex, WeightedTerm } from "./index.ts";
import { kindWords } from "./identifiers.ts";
import { derivedTerms, negatedTerm } from "./morphology.ts";
import { questionGroup, stateTerms } from "./question.ts";
import { synonymsOf } from "./synonyms.ts";
import { SHIPPED_TERM_MODEL, type TermModel } from "./term-model.ts";
import { analyzeWord, baseWords, isStopWord, stem, surfaceWords } from "./tokenize.ts";
import { TypoCorrector } from "./typo.ts";

export interface SearchLayers {
  synonyms: boolean;
  typos: boolean;
  /** "on call" also tries "oncall", "data source" "datasource", when the tools use that word. */
  joinedWords: boolean;
  /** Derived and compound words: "watch" also tries "watcher", "subfolder" "folder". */
  morphology: boolean;
  /** Re-ranking on the request's action against the tool's name verb. */
  intent: boolean;
  /** Re-ranking on the request's objects against the tool's name words. */
  nameMatch: boolean;
  /** Re-ranking on the servers the request names. */
  servers: boolean;
  /** Identifiers that say their kind: a tracker key ("ENG-42") an issue, "#general" a channel. */
  kinds: boolean;
  /** Questions read for what they ask: "is the build green" a status, "who changed it" a history. */
  questions: boolean;
  /** Re-ranking on one thing or many: "the issue #42" gets, "my issues" lists. */
  number: boolean;
  /** Re-ranking on the tool's required inputs against what the request gives (coordinates, an id...). */
  inputs: boolean;
  /** The learned vocabulary model: "abandon" also tries "delete", "mouse" "hover" (see `term-model.ts`). */
  learned: boolean;
}

export const ALL_LAYERS: SearchLayers = {
  synonyms: true,
  typos: true,
  joinedWords: true,
  morphology: true,
  kinds: true,
  questions: true,
  intent: true,
  nameMatch: true,
  servers: true,
  number: true,
  inputs: true,
  learned: true,
};

/** The query as groups of weighted terms, and where each group came from. */
export interface ExpandedQuery {
  groups: QueryGroup[];
  /** Lower-case words of the query, two-word idioms joined ("look up" → "lookup"). */
  words: string[];
  /** For each group, the index in `words` of the word it stands for. */
  origins: number[];
}

/** Two-word phrases models use for one verb. */
const IDIOMS: Record<string, string> = {
  "look up": "lookup",
  "turn on": "enable",
  "switch on": "enable",
  "turn off": "disable",
  "switch off": "disable",
  "roll back": "rollback",
  "set up": "setup",
  "log in": "login",
  "sign in": "login",
  "kick off": "trigger",
  "spin up": "create",
  "tear down": "delete",
  "logged in": "authenticated",
  "shut down": "shutdown",
};

const TYPO_WEIGHT = [1, 0.8, 0.6];

/** How much a derived or compound word counts against the word typed. */
const DERIVED_WEIGHT = 0.8;
/** How much the word after a negation still counts when the tools have its `un-` word. */
const NEGATED_WEIGHT = 0.5;

/** How much an identifier counts as the word of its kind ("ENG-42" as "issue"). */
const KIND_WEIGHT = 0.7;

/**
 * How much a learned term counts: twice its probability in the model (the table keeps 0.05 and
 * up), at most what a synonym of the concept map counts.
 */
function learnedWeight(probability: number): number {
  return Math.min(0.7, 2 * probability);
}

const correctors = new WeakMap<SearchIndex, TypoCorrector>();

function correctorFor(index: SearchIndex): TypoCorrector {
  let corrector = correctors.get(index);
  if (!corrector) correctors.set(index, corrector = new TypoCorrector(index.surfaceWords.keys()));
  return corrector;
}

export function expandQuery(
  text: string,
  index: SearchIndex,
  layers: SearchLayers = ALL_LAYERS,
  model: TermModel = SHIPPED_TERM_MODEL,
): ExpandedQuery {
  const words = joinIdioms(surfaceWords(text));
  const groups: QueryGroup[] = [];
  const origins: number[] = [];
  const kinds = layers.kinds ? kindWords(text) : new Map<string, string>();
  words.forEach((surface, at) => {
    // "ENG-42", "#general": the letters name a tracker or a channel, not a tool; what counts is the kind.
    const kind = kinds.get(surface);
    if (kind !== undefined) {
      const term = stem(kind);
      if (kind !== "" && index.hasTerm(term)) {
        groups.push([{ term, weight: KIND_WEIGHT }]);
        origins.push(at);
      }
      return;
    }
    const state = layers.questions ? stateTerms(words, at, index) : undefined;
    if (state && state.length > 0) {
      groups.push(state);
      origins.push(at);
      return;
    }
    const joined = layers.joinedWords ? joinedWord(words, at, index) : undefined;
    for (const word of baseWords(surface)) {
      if (isStopWord(word)) continue;
      const group = alternativesOf(word, index, layers, model);
      if (layers.morphology) {
        for (const term of derivedTerms(words, at, index)) group.push({ term, weight: DERIVED_WEIGHT });
        const negated = negatedTerm(words, at, index);
        // "not staged" means the tools' "unstaged": that is what was typed, the word itself less so.
        if (negated) {
          for (const alternative of group) alternative.weight *= NEGATED_WEIGHT;
          group.unshift({ term: negated, weight: 1 });
        }
      }
      // The model wrote one word of the tools' as two ("on call"): that word is what was typed.
      if (joined) group.unshift({ term: joined, weight: 1 });
      const known = keepKnown(group, index);
      if (known.length === 0) continue;
      groups.push(known);
      origins.push(at);
    }
  });
  const asked = layers.questions ? questionGroup(words, index) : undefined;
  if (asked) {
    groups.push(asked.group);
    origins.push(asked.at);
  }
  return { groups, words, origins };
}

/** The tools' term for this word joined with the one or two words before it ("who am i"), if any. */
function joinedWord(words: readonly string[], at: number, index: SearchIndex): string | undefined {
  for (const span of [3, 2]) {
    if (at + 1 < span) continue;
    const term = index.surfaceWords.get(words.slice(at + 1 - span, at + 1).join(""));
    if (term) return term;
  }
  return undefined;
}

function joinIdioms(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const idiom = IDIOMS[`${words[i]} ${words[i + 1]}`];
    if (idiom) i++;
    out.push(idiom ?? words[i]!);
  }
  return out;
}

/** The search terms of a request, as the words of `expandQuery`'s groups are read (for learning). */
export function requestTerms(text: string): string[] {
  return joinIdioms(surfaceWords(text)).flatMap(analyzeWord);
}

function alternativesOf(
  word: string,
  index: SearchIndex,
  layers: SearchLayers,
  model: TermModel,
): WeightedTerm[] {
  const term = stem(word);
  const group: WeightedTerm[] = [{ term, weight: 1 }];
  if (layers.typos && !index.hasTerm(term)) {
    for (const { word: fixed, distance } of correctorFor(index).corrections(word)) {
      group.push({ term: index.surfaceWords.get(fixed)!, weight: TYPO_WEIGHT[distance]! });
    }
  }
  // Synonyms of the word and of its corrections: "mesage" is fixed to "message", which means "post".
  const meanings = [...group];
  if (layers.synonyms) {
    for (const meaning of meanings) {
      for (const synonym of synonymsOf(meaning.term)) {
        group.push({ term: synonym.term, weight: synonym.weight * meaning.weight });
      }
    }
  }
  if (layers.learned) {
    for (const meaning of meanings) {
      for (const learned of model.termsFor(meaning.term)) {
        group.push({ term: learned.term, weight: learnedWeight(learned.weight) * meaning.weight });
      }
    }
  }
  return group;
}

/** Drops terms no tool uses and keeps the best weight of each term, the typed term first. */
function keepKnown(group: WeightedTerm[], index: SearchIndex): QueryGroup {
  const best = new Map<string, number>();
  for (const { term, weight } of group) {
    if (index.hasTerm(term) && weight > (best.get(term) ?? 0)) best.set(term, weight);
  }
  return [...best].map(([term, weight]) => ({ term, weight }));
}
