/**
 * What the re-ranker knows of each tool besides its postings: the distinct terms of its name, the
 * action class of its name verb, whether it gives one thing or many, its server and the kinds of
 * input it requires and takes. Made once at build time from the term ids the
 * tokenizer already produced, in flat typed arrays so the cache file stores them as they are.
 */
import type { SearchDocument } from "./document.ts";
import { nameActions } from "./intent.ts";
import { toolNumber } from "./number.ts";
import { surfaceWords } from "./tokenize.ts";

export interface ToolFacts {
  /** Tool d's name terms (ids, distinct, in name order) are `nameTerms[nameStarts[d]]` up to `nameStarts[d + 1]`. */
  nameStarts: Int32Array;
  nameTerms: Int32Array;
  /** Action classes of each tool's name verb (see `intent.ts`), 0 for none. */
  actions: Uint16Array;
  /** Each tool's grammatical number (see `number.ts`): `MANY`, `ONE` or 0. */
  numbers: Int8Array;
  /** Kinds of input (see `inputs.ts`) each tool requires, and takes at all. */
  requiredInputs: Uint8Array;
  acceptedInputs: Uint8Array;
  /** Stemmed words of the things whose ids each tool requires (see `inputs.ts`). */
  idNouns: readonly (readonly string[])[];
  /** Each tool's server, an index into `servers`. */
  serverIds: Int32Array;
  servers: readonly string[];
}

/** Collects the facts tool by tool, in document order. */
export class ToolFactsBuilder {
  private readonly nameStarts: number[] = [0];
  private readonly nameTerms: number[] = [];
  private readonly actions: number[] = [];
  private readonly numbers: number[] = [];
  private readonly serverIds: number[] = [];
  private readonly requiredInputs: number[] = [];
  private readonly acceptedInputs: number[] = [];
  private readonly idNouns: (readonly string[])[] = [];
  private readonly serverIndex = new Map<string, number>();

  constructor(private readonly termNames: readonly string[]) {}

  /** Adds the next tool: its document, and its name's term ids `ids[from]` up to `ids[to]`. */
  add(document: SearchDocument, ids: Int32Array, from: number, to: number): void {
    const { toolName: name, server } = document;
    const start = this.nameTerms.length;
    for (let i = from; i < to; i++) {
      const term = ids[i]!;
      if (this.nameTerms.indexOf(term, start) < 0) this.nameTerms.push(term);
    }
    this.nameStarts.push(this.nameTerms.length);
    const terms = this.nameTerms.slice(start).map((id) => this.termNames[id]!);
    this.actions.push(nameActions(terms));
    this.numbers.push(toolNumber(surfaceWords(name)));
    let serverId = this.serverIndex.get(server);
    if (serverId === undefined) this.serverIndex.set(server, serverId = this.serverIndex.size);
    this.serverIds.push(serverId);
    this.requiredInputs.push(document.inputs.required);
    this.acceptedInputs.push(document.inputs.accepted);
    this.idNouns.push(document.inputs.idNouns);
  }

  finish(): ToolFacts {
    return {
      nameStarts: Int32Array.from(this.nameStarts),
      nameTerms: Int32Array.from(this.nameTerms),
      actions: Uint16Array.from(this.actions),
      numbers: Int8Array.from(this.numbers),
      serverIds: Int32Array.from(this.serverIds),
      requiredInputs: Uint8Array.from(this.requiredInputs),
      acceptedInputs: Uint8Array.from(this.acceptedInputs),
      idNouns: this.idNouns,
      servers: [...this.serverIndex.keys()],
    };
  }
}
