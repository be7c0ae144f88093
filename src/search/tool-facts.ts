/**
 * What the re-ranker knows of each tool besides its postings: the distinct terms of its name, the
 * action class of its name verb, and its server. Made once at build time from the term ids the
 * tokenizer already produced, in flat typed arrays so the cache file stores them as they are.
 */
import { nameActions } from "./intent.ts";

export interface ToolFacts {
  /** Tool d's name terms (ids, distinct, in name order) are `nameTerms[nameStarts[d]]` up to `nameStarts[d + 1]`. */
  nameStarts: Int32Array;
  nameTerms: Int32Array;
  /** Action classes of each tool's name verb (see `intent.ts`), 0 for none. */
  actions: Uint16Array;
  /** Each tool's server, an index into `servers`. */
  serverIds: Int32Array;
  servers: readonly string[];
}

/** Collects the facts tool by tool, in document order. */
export class ToolFactsBuilder {
  private readonly nameStarts: number[] = [0];
  private readonly nameTerms: number[] = [];
  private readonly actions: number[] = [];
  private readonly serverIds: number[] = [];
  private readonly serverIndex = new Map<string, number>();

  constructor(private readonly termNames: readonly string[]) {}

  /** Adds the next tool: its name's term ids `ids[from]` up to `ids[to]`, and its server. */
  add(ids: Int32Array, from: number, to: number, server: string): void {
    const start = this.nameTerms.length;
    for (let i = from; i < to; i++) {
      const term = ids[i]!;
      if (this.nameTerms.indexOf(term, start) < 0) this.nameTerms.push(term);
    }
    this.nameStarts.push(this.nameTerms.length);
    const terms = this.nameTerms.slice(start).map((id) => this.termNames[id]!);
    this.actions.push(nameActions(terms));
    let serverId = this.serverIndex.get(server);
    if (serverId === undefined) this.serverIndex.set(server, serverId = this.serverIndex.size);
    this.serverIds.push(serverId);
  }

  finish(): ToolFacts {
    return {
      nameStarts: Int32Array.from(this.nameStarts),
      nameTerms: Int32Array.from(this.nameTerms),
      actions: Uint16Array.from(this.actions),
      serverIds: Int32Array.from(this.serverIds),
      servers: [...this.serverIndex.keys()],
    };
  }
}
