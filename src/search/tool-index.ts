/**
 * ToolSearch over a list of tools: the query language on top of the ranked index.
 *
 * @example
 * const index = ToolIndex.build(deferredTools);
 * index.search("+slack send", 5).hits; // [{ name: "mcp__slack__slack_post_message", score: 1 }, ...]
 * index.search("select:Read,NoSuchTool").missing; // ["NoSuchTool"]
 */
import type { AnyTool } from "../tool/types.ts";
import { toolDocument } from "./document.ts";
import { ALL_LAYERS, expandQuery, type SearchLayers } from "./expand.ts";
import { buildSearchIndex, type SearchIndex } from "./index.ts";
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
  private constructor(readonly tools: readonly AnyTool[], private readonly index: SearchIndex) {}

  static build(tools: readonly AnyTool[]): ToolIndex {
    return new ToolIndex(tools, buildSearchIndex(tools.map(toolDocument)));
  }

  search(query: string, limit = 5, layers: SearchLayers = ALL_LAYERS): SearchOutcome {
    const parsed = parseQuery(query);
    if (parsed.kind === "select") return this.select(parsed.names);
    const lowerNames = parsed.required.length > 0 ? this.tools.map((t) => t.name.toLowerCase()) : [];
    const allowed = (doc: number) => parsed.required.every((term) => lowerNames[doc]!.includes(term));
    const unmatchedRequired = parsed.required.filter((term) => !lowerNames.some((name) => name.includes(term)));
    if (unmatchedRequired.length > 0) return { hits: [], missing: [], unmatchedRequired };
    const groups = expandQuery(parsed.text, this.index, layers);
    let ranked = this.index.search(groups, limit, parsed.required.length > 0 ? allowed : undefined);
    if (ranked.length === 0 && parsed.required.length > 0) {
      // Only `+term`s, or words no tool of that name uses: the name filter alone, in pool order.
      ranked = this.tools.flatMap((_, doc) => allowed(doc) ? [{ doc, score: 1 }] : []).slice(0, limit);
    }
    const best = ranked[0]?.score ?? 1;
    const hits = ranked.map(({ doc, score }) => ({ name: this.tools[doc]!.name, score: round(score / best) }));
    return { hits, missing: [], unmatchedRequired: [] };
  }

  /** Exact names first; then aliases; then a case-insensitive match. */
  private select(names: readonly string[]): SearchOutcome {
    const hits: SearchHit[] = [];
    const missing: string[] = [];
    for (const wanted of names) {
      const tool = this.tools.find((t) => t.name === wanted) ??
        this.tools.find((t) => t.aliases.includes(wanted)) ??
        this.tools.find((t) => t.name.toLowerCase() === wanted.toLowerCase());
      if (!tool) missing.push(wanted);
      else if (!hits.some((hit) => hit.name === tool.name)) hits.push({ name: tool.name, score: 1 });
    }
    return { hits, missing, unmatchedRequired: [] };
  }
}

function round(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}
