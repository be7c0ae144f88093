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
import { buildSearchIndex, SearchIndex } from "./index.ts";
import { parseQuery } from "./query.ts";

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

  constructor(
    readonly index: SearchIndex,
    /** Each tool's other names, for `select:`. */
    readonly aliases: readonly (readonly string[])[],
  ) {
    this.lowerNames = index.names.map((name) => name.toLowerCase());
  }

  static build(tools: readonly AnyTool[]): ToolIndex {
    return ToolIndex.fromDocuments(tools.map(toolDocument), tools.map((tool) => tool.aliases));
  }

  static fromDocuments(
    documents: readonly SearchDocument[],
    aliases: readonly (readonly string[])[],
  ): ToolIndex {
    return new ToolIndex(buildSearchIndex(documents), aliases);
  }

  get names(): readonly string[] {
    return this.index.names;
  }

  search(query: string, limit = 5, layers: SearchLayers = ALL_LAYERS): SearchOutcome {
    const parsed = parseQuery(query);
    if (parsed.kind === "select") return this.select(parsed.names);
    const { names } = this;
    const unmatchedRequired = parsed.required.filter((term) =>
      !this.lowerNames.some((name) => name.includes(term))
    );
    if (unmatchedRequired.length > 0) return { hits: [], missing: [], unmatchedRequired };
    const allowed = parsed.required.length > 0 ? this.namesContaining(parsed.required) : undefined;
    const groups = expandQuery(parsed.text, this.index, layers);
    let ranked = this.index.search(groups, limit, allowed);
    if (ranked.length === 0 && allowed) {
      // Words no tool of that name uses: the name filter alone, in pool order.
      ranked = names.flatMap((_, doc) => allowed[doc] ? [{ doc, score: 1 }] : []).slice(0, limit);
    }
    const best = ranked[0]?.score ?? 1;
    const hits = ranked.map(({ doc, score }) => ({ name: names[doc]!, score: round(score / best) }));
    return { hits, missing: [], unmatchedRequired: [] };
  }

  private namesContaining(terms: readonly string[]): Uint8Array {
    return Uint8Array.from(this.lowerNames, (name) => terms.every((term) => name.includes(term)) ? 1 : 0);
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

function round(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}
