/**
 * ToolSearch over a list of tools: the query language on top of the ranked index.
 *
 * @example
 * const index = ToolIndex.build(deferredTools);
 * index.search("+slack send", 5).hits; // [{ name: "mcp__slack__slack_post_message", score: 1 }, ...]
 * index.search("select:Read,NoSuchTool").missing; // ["NoSuchTool"]
 */
import type { AnyTool } from "../tool/types.ts";
import { type SearchDocument, toolDocument } from "./document.ts";
import { ALL_LAYERS, expandQuery, type SearchLayers } from "./expand.ts";
import { buildSearchIndex, type ScoredDoc, SearchIndex } from "./index.ts";
import { suppliedInputs } from "./inputs.ts";
import { queryIntent } from "./intent.ts";
import { queryNumber } from "./number.ts";
import { parseQuery } from "./query.ts";
import { CANDIDATES, rerank, RERANK_WEIGHTS, type RerankQuery, type RerankWeights } from "./rerank.ts";
import { SHIPPED_TERM_MODEL, type TermModel } from "./term-model.ts";
import { analyzeWord } from "./tokenize.ts";

export interface SearchHit {
  name: string;
  /** Relative to the best hit of the same query (1); `select:` hits are all 1. */
  score: number;
}

export interface SearchOutcome {
  hits: SearchHit[];
  /** `select:` names that matched no tool. */
  missing: string[];
  /** `+term`s that no tool name contains. */
  unmatchedRequired: string[];
}

export class ToolIndex {
  private readonly lowerNames: readonly string[];
  /** The lower-case names joined by newlines, and where each one ends in that string. */
  private readonly joinedNames: string;
  private readonly nameEnds: Int32Array;

  constructor(
    readonly index: SearchIndex,
    /** Each tool's other names, for `select:`. */
    readonly aliases: readonly (readonly string[])[],
    /** The learned vocabulary model queries are expanded with. */
    readonly model: TermModel = SHIPPED_TERM_MODEL,
  ) {
    this.lowerNames = index.names.map((name) => name.toLowerCase());
    this.joinedNames = this.lowerNames.join("\n");
    this.nameEnds = new Int32Array(this.lowerNames.length);
    let end = 0;
    this.lowerNames.forEach((name, doc) => this.nameEnds[doc] = end += name.length + (doc > 0 ? 1 : 0));
  }

  static build(tools: readonly AnyTool[], model?: TermModel): ToolIndex {
    return ToolIndex.fromDocuments(tools.map(toolDocument), tools.map((tool) => tool.aliases), model);
  }

  static fromDocuments(
    documents: readonly SearchDocument[],
    aliases: readonly (readonly string[])[],
    model?: TermModel,
  ): ToolIndex {
    return new ToolIndex(buildSearchIndex(documents), aliases, model);
  }

  get names(): readonly string[] {
    return this.index.names;
  }

  search(
    query: string,
    limit = 5,
    layers: SearchLayers = ALL_LAYERS,
    weights: RerankWeights = RERANK_WEIGHTS,
  ): SearchOutcome {
    const parsed = parseQuery(query);
    if (parsed.kind === "select") return this.select(parsed.names);
    const { names } = this;
    const filter = parsed.required.length > 0 ? this.namesContaining(parsed.required) : undefined;
    const unmatchedRequired = filter?.unmatched ?? [];
    if (unmatchedRequired.length > 0) return { hits: [], missing: [], unmatchedRequired };
    const allowed = filter?.allowed;
    const { query: understood, candidates } = this.candidates(parsed.text, layers, allowed);
    let ranked = rerank(this.index, understood, candidates, layerWeights(weights, layers)).slice(0, limit);
    if (ranked.length === 0 && allowed) {
      // Words no tool of that name uses: the name filter alone, in pool order.
      ranked = names.flatMap((_, doc) => allowed[doc] ? [{ doc, score: 1 }] : []).slice(0, limit);
    }
    const best = ranked[0]?.score ?? 1;
    const hits = ranked.map(({ doc, score }) => ({ name: names[doc]!, score: round(score / best) }));
    return { hits, missing: [], unmatchedRequired: [] };
  }

  /** BM25F's best candidates for the query text, and what the re-ranker reads of the query. */
  candidates(
    text: string,
    layers: SearchLayers = ALL_LAYERS,
    allowed?: Uint8Array,
  ): { query: RerankQuery; candidates: ScoredDoc[] } {
    const { groups, words, origins } = expandQuery(text, this.index, layers, this.model);
    const intent = queryIntent(words);
    const query: RerankQuery = {
      groups,
      objects: origins.map((at) => at !== intent.at),
      actions: intent.actions,
      stems: words.flatMap(analyzeWord),
      number: queryNumber(text),
      inputs: suppliedInputs(text),
    };
    return { query, candidates: this.index.search(groups, CANDIDATES, allowed) };
  }

  /**
   * Documents whose lower-case name contains every term, and the terms no name contains. Native
   * substring search over all names joined in one string, not one test per name and term.
   */
  private namesContaining(terms: readonly string[]): { allowed: Uint8Array; unmatched: string[] } {
    const { joinedNames, nameEnds } = this;
    const counts = new Uint8Array(nameEnds.length);
    const unique = [...new Set(terms)];
    const unmatched = unique.filter((term) => {
      let found = false;
      for (let at = joinedNames.indexOf(term); at >= 0;) {
        const doc = firstAbove(nameEnds, at);
        counts[doc]!++;
        found = true;
        at = joinedNames.indexOf(term, nameEnds[doc]!);
      }
      return !found;
    });
    return { allowed: counts.map((count) => count === unique.length ? 1 : 0), unmatched };
  }

  /** Exact names first; then aliases; then a case-insensitive match. */
  private select(names: readonly string[]): SearchOutcome {
    const hits: SearchHit[] = [];
    const missing: string[] = [];
    for (const wanted of names) {
      let doc = this.names.indexOf(wanted);
      if (doc < 0) doc = this.aliases.findIndex((aliases) => aliases.includes(wanted));
      if (doc < 0) doc = this.lowerNames.indexOf(wanted.toLowerCase());
      const name = this.names[doc];
      if (name === undefined) missing.push(wanted);
      else if (!hits.some((hit) => hit.name === name)) hits.push({ name, score: 1 });
    }
    return { hits, missing, unmatchedRequired: [] };
  }
}

/** The weights of the layers switched off are zero. */
function layerWeights(weights: RerankWeights, layers: SearchLayers): RerankWeights {
  return {
    action: layers.intent ? weights.action : 0,
    coverage: layers.nameMatch ? weights.coverage : 0,
    precision: layers.nameMatch ? weights.precision : 0,
    server: layers.servers ? weights.server : 0,
    otherServer: layers.servers ? weights.otherServer : 0,
    number: layers.number ? weights.number : 0,
    inputs: layers.inputs ? weights.inputs : 0,
    namedId: layers.inputs ? weights.namedId : 0,
  };
}

/** The first index whose value is above `at` (binary search over ascending values). */
function firstAbove(values: Int32Array, at: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle]! > at) high = middle;
    else low = middle + 1;
  }
  return low;
}

function round(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}
