/**
 * Second stage of the ranking: the best candidates of BM25F are scored again with what a bag of
 * words cannot see. Does the tool's name verb do what the request asks (a question wants a
 * lookup, not a delete)? Does its name hold the request's objects, and little else? Is it on the
 * server the request names? Does it give one thing or many, as asked? Does it take what the
 * request supplies (coordinates, the id of the thing it names)? The weights are round numbers read
 * off `bench/search-fit.ts`, which fits them on the tuning and development queries by coordinate
 * ascent: every fold wants more weight on precision and servers, a little on number, and some on
 * both input features; a penalty for required ids the request does not give was fitted to nothing
 * and left out. Under 4-fold cross-validation the fitted weights do no better on unseen queries
 * than these (MRR 0.768 against 0.769).
 */
import type { QueryGroup, ScoredDoc, SearchIndex } from "./index.ts";
import { inputFit, type SuppliedInputs } from "./inputs.ts";
import { actionFit } from "./intent.ts";
import { serverWords } from "./servers.ts";

/** How many of BM25F's best are looked at again. */
export const CANDIDATES = 30;

export interface RerankWeights {
  /** Name verb against the request's action (see `actionFit`). */
  action: number;
  /** Share of the request's object words found in the tool's name. */
  coverage: number;
  /** Share of the tool's name words the request asked for. */
  precision: number;
  /** The request names the tool's server. */
  server: number;
  /** The request names servers, not this tool's (a penalty: below zero). */
  otherServer: number;
  /** The tool gives one thing or many as the request asks (1), or the other (-1); see `number.ts`. */
  number: number;
  /** Share of the request's kinds of input (an id, coordinates...) the tool takes; see `inputs.ts`. */
  inputs: number;
  /** The request gives the id of a thing the tool requires the id of ("issue 42" and `issue_iid`). */
  namedId: number;
}

export const RERANK_WEIGHTS: RerankWeights = {
  action: 0.3,
  coverage: 0.3,
  precision: 0.5,
  server: 0.4,
  otherServer: -0.3,
  number: 0.05,
  inputs: 0.2,
  namedId: 0.3,
};

/** What the re-ranker reads of a query. */
export interface RerankQuery {
  groups: readonly QueryGroup[];
  /** For each group, whether it is one of the request's objects (not its verb or question word). */
  objects: readonly boolean[];
  /** Action classes asked for (see `intent.ts`). */
  actions: number;
  /** Stemmed words of the query, for the servers it names. */
  stems: readonly string[];
  /** Whether the request asks for one thing or many (see `number.ts`). */
  number: number;
  /** What the request's text supplies (see `inputs.ts`). */
  inputs: SuppliedInputs;
}

export type RerankFeatures = Record<keyof RerankWeights, number>;

/** The features of each candidate, for ranking and for fitting the weights. */
export function rerankFeatures(index: SearchIndex, query: RerankQuery, candidates: readonly ScoredDoc[]) {
  const { nameStarts, nameTerms, actions, numbers, serverIds, requiredInputs, acceptedInputs, idNouns } =
    index.facts;
  const { terms } = index.postings;
  const groupIds = query.groups.map((group) => group.map(({ term }) => terms.get(term) ?? -1));
  const named = namedServers(index, query.stems);
  return candidates.map(({ doc }): RerankFeatures => {
    const from = nameStarts[doc]!;
    const to = nameStarts[doc + 1]!;
    const inName = (ids: readonly number[]) => ids.some((id) => nameTerms.subarray(from, to).includes(id));
    let objects = 0, covered = 0;
    groupIds.forEach((ids, g) => {
      if (!query.objects[g]) return;
      objects++;
      if (inName(ids)) covered++;
    });
    let asked = 0;
    for (let i = from; i < to; i++) if (groupIds.some((ids) => ids.includes(nameTerms[i]!))) asked++;
    const onNamed = named.has(serverIds[doc]!);
    const fit = inputFit(query.inputs, {
      required: requiredInputs[doc]!,
      accepted: acceptedInputs[doc]!,
      idNouns: idNouns[doc]!,
    });
    return {
      action: actionFit(query.actions, actions[doc]!),
      coverage: objects === 0 ? 0 : covered / objects,
      precision: to === from ? 0 : asked / (to - from),
      server: onNamed ? 1 : 0,
      otherServer: named.size > 0 && !onNamed ? 1 : 0,
      number: query.number * numbers[doc]!,
      inputs: fit.given,
      namedId: fit.idNamed,
    };
  });
}

/** The candidates in their new order, each score the BM25F share of the best plus the features. */
export function rerank(
  index: SearchIndex,
  query: RerankQuery,
  candidates: readonly ScoredDoc[],
  weights: RerankWeights = RERANK_WEIGHTS,
): ScoredDoc[] {
  const best = candidates[0]?.score ?? 1;
  const features = rerankFeatures(index, query, candidates);
  return candidates
    .map(({ doc, score }, i) => ({ doc, score: score / best + weighted(features[i]!, weights) }))
    .sort((a, b) => b.score - a.score || a.doc - b.doc);
}

export function weighted(features: RerankFeatures, weights: RerankWeights): number {
  let sum = 0;
  for (const key of Object.keys(weights) as (keyof RerankWeights)[]) {
    sum += weights[key] * features[key];
  }
  return sum;
}

function namedServers(index: SearchIndex, stems: readonly string[]): Set<number> {
  const words = serverWords(index);
  const named = new Set<number>();
  for (const stem of stems) for (const id of words.get(stem) ?? []) named.add(id);
  return named;
}
