/**
 * ToolSearch quality and speed on the public MCP catalog (shared/data/mcp-catalog.json):
 * - recall@1, recall@5 and MRR of toolrt's search, of the same without the learned model, and of
 *   plain BM25 over name+description, per query set (tuning, dev 4-6, held out 1-3 and 6-8; see
 *   bench/support/search-queries.ts) and per kind;
 * - first-stage coverage: the share of queries with a right tool among BM25F's candidates, the
 *   most the re-ranker can find;
 * - the gain of each layer (recall@5 with that layer switched off) and the size of its data;
 * - index build, cache load and query latency over 10,000 tools (the catalog repeated under new
 *   server names), with the load average they were measured under;
 * - turn-one token saving: chars/4 of the tool definitions sent with and without deferral.
 *
 *   bun bench/search.ts [--sets dev-6,dev-5] [--quality-only] [CATALOG.json]
 *
 * `--sets` limits the query sets (while tuning: the development sets only); `--quality-only` skips
 * the speed and token figures.
 */
import "./support/isolated-home.ts";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { join } from "node:path";
import { serializeTools } from "../src/agent/serialize.ts";
import { decideDeferral } from "../src/pool/deferral.ts";
import { type Catalog, catalogTools } from "../src/search/catalog.ts";
import { DiscoveredTools } from "../src/search/discovered.ts";
import { ALL_LAYERS, type SearchLayers } from "../src/search/expand.ts";
import { decodeIndex, encodeIndex } from "../src/search/index-file.ts";
import { CANDIDATES } from "../src/search/rerank.ts";
import { ToolIndex } from "../src/search/tool-index.ts";
import type { AnyTool } from "../src/tool/types.ts";
import { createToolSearchTool } from "../src/tools/tool-search/tool.ts";
import { report, round, summarize, timeRuns } from "./support/lib.ts";
import { PlainBm25 } from "./support/search-baseline.ts";
import { loadSearchBench, type Query } from "./support/search-queries.ts";

const { values: options, positionals } = parseArgs({
  args: Bun.argv.slice(2),
  options: { sets: { type: "string" }, "quality-only": { type: "boolean" } },
  allowPositionals: true,
});
const { catalog, tools, sets: allSets } = loadSearchBench(positionals[0]);
const wanted = options.sets?.split(",");
const sets = Object.fromEntries(
  Object.entries(allSets).filter(([name]) => !wanted || wanted.includes(name)),
) as Partial<typeof allSets>;
const queries = Object.values(sets).flat();

type Ranker = (query: string) => string[];

function quality(rank: Ranker, subset: readonly Query[]) {
  let hit1 = 0, hit5 = 0, reciprocal = 0;
  for (const q of subset) {
    const ranked = rank(q.q);
    const first = ranked.findIndex((name) => q.expect.includes(name));
    if (first === 0) hit1++;
    if (first >= 0 && first < 5) hit5++;
    if (first >= 0) reciprocal += 1 / (first + 1);
  }
  const n = subset.length;
  return { "recall@1": round(hit1 / n), "recall@5": round(hit5 / n), mrr: round(reciprocal / n), queries: n };
}

const index = ToolIndex.build(tools);
const bm25 = new PlainBm25(tools);
const methods: Record<string, Ranker> = {
  toolrt: (q) => index.search(q, 10).hits.map((h) => h.name),
  // The learned model by query kind (the ablation below gives totals only).
  "toolrt without learned": (q) =>
    index.search(q, 10, { ...ALL_LAYERS, learned: false }).hits.map((h) => h.name),
  // Plain BM25 has no query language: the `+` is just dropped.
  bm25: (q) => bm25.search(q.replaceAll("+", " "), 10),
};
const kinds = [...new Set(queries.map((q) => q.kind))];
for (const [method, rank] of Object.entries(methods)) {
  for (const [set, subset] of Object.entries(sets)) {
    report("search", { figure: "quality", method, set, ...quality(rank, subset) });
  }
  for (const [set, subset] of Object.entries(sets)) {
    for (const kind of kinds) {
      const ofKind = subset.filter((q) => q.kind === kind);
      if (ofKind.length > 0) {
        report("search", { figure: "quality by kind", method, set, kind, ...quality(rank, ofKind) });
      }
    }
  }
}

for (const [set, subset] of Object.entries(sets)) {
  const covered = subset.filter((q) =>
    index.candidates(q.q.replaceAll("+", " ")).candidates.some(({ doc }) =>
      q.expect.includes(index.names[doc]!)
    )
  );
  report("search", {
    figure: "first-stage coverage",
    set,
    candidates: CANDIDATES,
    coverage: round(covered.length / subset.length),
    queries: subset.length,
  });
}

// Layer gains: each layer off in turn, then all off (stemming, field weights and the query
// language remain).
const layerRuns: Record<string, SearchLayers> = {
  ...Object.fromEntries(
    (Object.keys(ALL_LAYERS) as (keyof SearchLayers)[]).map((layer) => [`without ${layer}`, {
      ...ALL_LAYERS,
      [layer]: false,
    }]),
  ),
  "no layers": Object.fromEntries(
    Object.keys(ALL_LAYERS).map((layer) => [layer, false]),
  ) as unknown as SearchLayers,
};
for (const [label, layers] of Object.entries(layerRuns)) {
  const rank: Ranker = (q) => index.search(q, 10, layers).hits.map((h) => h.name);
  for (const [set, subset] of Object.entries(sets)) {
    report("search", { figure: "layer ablation", method: `toolrt ${label}`, set, ...quality(rank, subset) });
  }
}
for (
  const [layer, file] of [
    ["synonyms", "concepts.ts"],
    ["morphology", "morphology.ts"],
    ["questions", "question.ts"],
    ["kinds", "identifiers.ts"],
    ["intent", "intent.ts"],
    ["number", "number.ts"],
    ["servers", "servers.ts"],
    ["inputs", "inputs.ts"],
    ["learned", "learned-terms.ts"],
  ]
) {
  report("search", {
    figure: "layer data size",
    layer: layer!,
    bytes: Bun.file(join(import.meta.dir, "../src/search", file!)).size,
  });
}

if (options["quality-only"]) process.exit(0);

// Speed over 10,000 tools.
function repeatedCatalog(source: Catalog, size: number): AnyTool[] {
  const servers: Catalog["servers"] = [];
  for (let copy = 0; servers.reduce((n, s) => n + s.tools.length, 0) < size; copy++) {
    for (const server of source.servers) servers.push({ ...server, name: `${server.name}${copy || ""}` });
  }
  return catalogTools({ servers }).slice(0, size);
}
const big = repeatedCatalog(catalog, 10_000);
const builds = await timeRuns(5, () => ToolIndex.build(big), 1);
const load = () => round(loadavg()[0]!, 2);
report("search", { figure: "index build", tools: big.length, ...roundAll(summarize(builds)), load: load() });
const bigIndex = ToolIndex.build(big);
const cached = encodeIndex(bigIndex);
const loads = await timeRuns(5, () => decodeIndex(cached));
report("search", {
  figure: "cache load",
  tools: big.length,
  bytes: cached.byteLength,
  ...roundAll(summarize(loads)),
  load: load(),
});
// The builds above leave megabytes of garbage; collect it so the figure is the queries' own.
Bun.gc(true);
const latencies: number[] = [];
/** Each query's fastest round: what the search costs when no other process takes the core away. */
const best = new Array<number>(queries.length).fill(Infinity);
for (let round = 0; round < 5; round++) {
  queries.forEach((q, i) => {
    const start = Bun.nanoseconds();
    bigIndex.search(q.q, 5);
    const ms = (Bun.nanoseconds() - start) / 1e6;
    if (round === 0) return;
    latencies.push(ms);
    best[i] = Math.min(best[i]!, ms);
  });
}
report("search", {
  figure: "query latency",
  tools: big.length,
  unit: "ms",
  ...roundAll(summarize(latencies)),
  load: load(),
});
report("search", {
  figure: "query latency, best of 4 rounds per query",
  tools: big.length,
  unit: "ms",
  ...roundAll(summarize(best)),
  load: load(),
});

// Turn-one tokens: every definition sent vs. only the loaded ones plus ToolSearch (client side).
const toolSearch = createToolSearchTool({
  deferredTools: () => tools,
  discovered: new DiscoveredTools(),
  resultStyle: "schemas",
});
const entries = [toolSearch, ...tools].map((tool) => ({ tool, deferred: decideDeferral(tool).deferred }));
const allLoaded = serializeTools(entries.map((e) => ({ ...e, deferred: false })), {
  serverToolSearch: false,
  discovered: { has: () => false },
});
const deferred = serializeTools(entries, { serverToolSearch: false, discovered: { has: () => false } });
// The deferred names are still announced to the model, one per line.
const announced = tools.map((t) => t.name).join("\n");
const tokens = (value: unknown) => Math.round(JSON.stringify(value).length / 4);
report("search", {
  figure: "turn-one tokens",
  tools: tools.length,
  without_deferral: tokens(allLoaded),
  with_deferral: tokens(deferred) + Math.round(announced.length / 4),
  saving: round(1 - (tokens(deferred) + announced.length / 4) / tokens(allLoaded)),
});

function roundAll<T extends object>(summary: T): T {
  return Object.fromEntries(
    Object.entries(summary).map(([k, v]) => [k, typeof v === "number" ? round(v) : v]),
  ) as T;
}
