/**
 * Learns which tool words a request word stands for, from request → tool pairs: IBM Model 1, the
 * request's terms (and an empty word) generating the terms of the tool's name, hint, description
 * and argument names, fitted by expectation-maximisation. A request word that tools use explains
 * itself and learns little else; a word the tool does not use ("forget") ends up with the tool
 * words its requests' tools share ("delete") and that the empty word, which soaks up what every
 * description says, does not explain. Then pruned to what should hold for tools never seen:
 * pairs seen on several servers, probable enough, and not words as common as get or list.
 * Deterministic: pairs in file order, terms sorted, ties broken by name.
 */
import { toolDocument } from "../../src/search/document.ts";
import { requestTerms } from "../../src/search/expand.ts";
import { analyze } from "../../src/search/tokenize.ts";
import type { AnyTool } from "../../src/tool/types.ts";

export interface TrainingPair {
  request: string;
  /** The tool's name. */
  tool: string;
}

/**
 * Read off the split and four-fold figures of bench/search-learn.ts on the development queries
 * (the held-out sets were never used to choose them).
 */
export interface LearnerOptions {
  iterations: number;
  /** How much a word of the tool's name counts against one of its other texts. */
  nameWeight: number;
  /** How much a word of the tool's description, hint and argument names counts. */
  descriptionWeight: number;
  /** How much more than a request word the empty word may explain a tool word. */
  nullWeight: number;
  /** Requests a word must occur in to be learned. */
  minCount: number;
  /** Servers a (request term, tool term) pair must be seen on: one server's words are its own. */
  minServers: number;
  /**
   * Smallest probability kept. 0.05 rather than 0.15 once the third round of synonym requests was
   * in: four-fold recall@5 0.913 → 0.916 and MRR 0.785 → 0.796 (synonyms 0.835 → 0.866), unseen
   * tools unchanged within a query (0.894 → 0.893).
   */
  minProbability: number;
  /** Most tool terms kept per request term. */
  maxTerms: number;
  /**
   * Largest share of the tools a learned term may occur in: words as common as get, list or create
   * tell tools apart by their action, which the intent layer reads; learned, they pull every
   * request towards every lookup.
   */
  maxTargetShare: number;
}

export const LEARNER_OPTIONS: LearnerOptions = {
  iterations: 8,
  nameWeight: 3,
  descriptionWeight: 0.3,
  nullWeight: 4,
  minCount: 2,
  minServers: 2,
  minProbability: 0.05,
  maxTerms: 6,
  maxTargetShare: 0.1,
};

/** What the learner reads of a tool: its server, and its terms with their weights. */
export interface ToolTerms {
  server: string;
  terms: ReadonlyMap<string, number>;
}

/** Each tool's terms by name (a term in several fields keeps its largest weight). */
export function toolTerms(
  tools: readonly AnyTool[],
  { nameWeight, descriptionWeight }: LearnerOptions = LEARNER_OPTIONS,
): Map<string, ToolTerms> {
  const out = new Map<string, ToolTerms>();
  for (const tool of tools) {
    const doc = toolDocument(tool);
    const terms = new Map<string, number>();
    const add = (text: string, weight: number) => {
      for (const term of analyze(text)) terms.set(term, Math.max(terms.get(term) ?? 0, weight));
    };
    add(doc.toolName, nameWeight);
    for (const text of [doc.hint, doc.description, doc.argNames]) add(text, descriptionWeight);
    // The server's name says where the tool is, not what it does: learned, it would send requests
    // to a server of the catalog rather than to a meaning.
    for (const term of analyze(doc.server)) terms.delete(term);
    out.set(tool.name, { server: doc.server, terms });
  }
  return out;
}

/** Request term → [tool term, probability] pairs, strongest first, the term itself left out. */
export type LearnedTable = Map<string, [string, number][]>;

/** The empty source word, which may generate any tool term. */
const NULL = "";

/** Numbers and one- or two-letter words are no vocabulary. */
function isWord(term: string): boolean {
  return term.length > 2 && /^[a-z]+$/.test(term);
}

interface Example {
  sources: string[];
  targets: [string, number][];
  server: string;
}

export function learnTerms(
  pairs: readonly TrainingPair[],
  tools: ReadonlyMap<string, ToolTerms>,
  options: LearnerOptions = LEARNER_OPTIONS,
): LearnedTable {
  const examples = pairs.map((pair): Example => {
    const tool = tools.get(pair.tool);
    if (!tool) throw new Error(`training pair "${pair.request}": no tool ${pair.tool}`);
    const sources = [NULL, ...new Set(requestTerms(pair.request).filter(isWord))];
    return { sources, targets: [...tool.terms], server: tool.server };
  });
  const table = fitModelOne(examples, options);
  const documents = new Map<string, number>();
  for (const { terms } of tools.values()) {
    for (const term of terms.keys()) documents.set(term, (documents.get(term) ?? 0) + 1);
  }
  const common = (term: string) => (documents.get(term) ?? 0) > options.maxTargetShare * tools.size;
  return prune(table, examples, common, options);
}

/** t(tool term | request term) by expectation-maximisation, uniform at first. */
function fitModelOne(
  examples: readonly Example[],
  options: LearnerOptions,
): Map<string, Map<string, number>> {
  let table = new Map<string, Map<string, number>>();
  // Before the first M-step every pair is equally likely; after it, every pair that co-occurs has
  // a probability.
  const probability = (source: string, target: string) =>
    (table.get(source)?.get(target) ?? 1) * (source === NULL ? options.nullWeight : 1);
  for (let iteration = 0; iteration < options.iterations; iteration++) {
    const counts = new Map<string, Map<string, number>>();
    for (const { sources, targets } of examples) {
      for (const [target, weight] of targets) {
        let total = 0;
        for (const source of sources) total += probability(source, target);
        for (const source of sources) {
          let row = counts.get(source);
          if (!row) counts.set(source, row = new Map());
          row.set(target, (row.get(target) ?? 0) + weight * probability(source, target) / total);
        }
      }
    }
    table = new Map();
    for (const [source, row] of counts) {
      let sum = 0;
      for (const count of row.values()) sum += count;
      table.set(source, new Map([...row].map(([target, count]) => [target, count / sum])));
    }
  }
  return table;
}

function prune(
  table: Map<string, Map<string, number>>,
  examples: readonly Example[],
  common: (term: string) => boolean,
  options: LearnerOptions,
): LearnedTable {
  const requests = new Map<string, number>();
  const pairServers = new Map<string, Set<string>>();
  for (const { sources, targets, server } of examples) {
    for (const source of sources) {
      requests.set(source, (requests.get(source) ?? 0) + 1);
      for (const [target] of targets) {
        const key = `${source} ${target}`;
        let servers = pairServers.get(key);
        if (!servers) pairServers.set(key, servers = new Set());
        servers.add(server);
      }
    }
  }
  const learned: LearnedTable = new Map();
  for (const source of [...table.keys()].sort()) {
    if (source === NULL || (requests.get(source) ?? 0) < options.minCount) continue;
    const kept = [...table.get(source)!]
      .filter(([target, p]) =>
        target !== source && p >= options.minProbability && !common(target) &&
        (pairServers.get(`${source} ${target}`)?.size ?? 0) >= options.minServers
      )
      .map(([target, p]): [string, number] => [target, Math.round(p * 100) / 100])
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, options.maxTerms);
    if (kept.length > 0) learned.set(source, kept);
  }
  return learned;
}

/** The table as `TermModel` reads it: one line per request term. */
export function serializeTable(table: LearnedTable): string {
  return [...table].map(([source, targets]) =>
    [source, ...targets.map(([target, p]) => `${target}:${p}`)].join(" ")
  ).join("\n");
}
