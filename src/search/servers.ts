/**
 * Which servers a query names: "github", "k8s", "cloudtrail", "jira". A server is named by a word
 * of its own name that mostly occurs in its own tools ("aws" for the aws-* servers, not "search"
 * for brave-search, nor "line" for LINE), or by a product word that stands for it.
 */
import type { SearchIndex } from "./index.ts";
import { analyze, stem } from "./tokenize.ts";

/** Product words that name a server other than by its own name; a server the index lacks is skipped. */
const PRODUCT_ALIASES: Record<string, string> = {
  jira: "atlassian",
  confluence: "atlassian",
  kubectl: "kubernetes",
  helm: "kubernetes",
  gh: "github",
  mongo: "mongodb",
  psql: "postgres",
  postgresql: "postgres",
  wrangler: "cloudflare",
  drive: "gdrive",
  dynamo: "dynamodb",
  ec2: "aws",
  lambda: "aws",
  devtools: "chrome",
};

/** Stemmed query term → ids of the servers it names, for one index. */
export type ServerWords = ReadonlyMap<string, readonly number[]>;

const cache = new WeakMap<SearchIndex, ServerWords>();

export function serverWords(index: SearchIndex): ServerWords {
  let words = cache.get(index);
  if (!words) cache.set(index, words = buildServerWords(index));
  return words;
}

function buildServerWords(index: SearchIndex): ServerWords {
  const { servers, serverIds } = index.facts;
  const { terms, starts } = index.postings;
  const toolsOf = new Array<number>(servers.length).fill(0);
  for (const id of serverIds) toolsOf[id]!++;
  const serversOf = new Map<string, number[]>();
  servers.forEach((server, id) => {
    for (const term of new Set(analyze(server))) serversOf.set(term, [...serversOf.get(term) ?? [], id]);
  });
  const words = new Map<string, readonly number[]>();
  for (const [term, ids] of serversOf) {
    const termId = terms.get(term);
    if (termId === undefined) continue;
    const own = ids.reduce((sum, id) => sum + toolsOf[id]!, 0);
    const elsewhere = starts[termId + 1]! - starts[termId]! - own;
    if (elsewhere <= own) words.set(term, ids);
  }
  for (const [alias, target] of Object.entries(PRODUCT_ALIASES)) {
    const ids = serversOf.get(stem(target));
    if (ids && !words.has(stem(alias))) words.set(stem(alias), ids);
  }
  return words;
}
