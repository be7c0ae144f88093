/**
 * Fits the re-ranker's weights (`RERANK_WEIGHTS` in src/search/rerank.ts) on the tuning and
 * development queries only (tuning, dev-4, dev-5, dev-6), by coordinate ascent on MRR, and shows by
 * 4-fold cross-validation on the same queries how well weights fit that way carry over to queries
 * they were not fit on. The held-out sets are not read. Prints one JSON object per line; fitted weights that win under cross-validation go into
 * rerank.ts by hand.
 *
 *   bun bench/search-fit.ts [CATALOG.json]
 */
import "./support/isolated-home.ts";
import { RERANK_WEIGHTS, rerankFeatures, type RerankWeights, weighted } from "../src/search/rerank.ts";
import { ToolIndex } from "../src/search/tool-index.ts";
import { loadSearchBench } from "./support/search-queries.ts";
import { report, round } from "./support/lib.ts";

const { tools, sets } = loadSearchBench(Bun.argv[2]);
const index = ToolIndex.build(tools);

/** A query's candidates, BM25F share and features, fixed whatever the weights. */
interface Prepared {
  expect: Set<string>;
  candidates: { name: string; share: number; features: ReturnType<typeof rerankFeatures>[number] }[];
}

const prepared: Prepared[] = [...sets.tuning, ...sets["dev-4"], ...sets["dev-5"], ...sets["dev-6"]].map(
  (q) => {
    const { query, candidates } = index.candidates(q.q.replaceAll("+", " "));
    const features = rerankFeatures(index.index, query, candidates);
    const best = candidates[0]?.score ?? 1;
    return {
      expect: new Set(q.expect),
      candidates: candidates.map(({ doc, score }, i) => ({
        name: index.names[doc]!,
        share: score / best,
        features: features[i]!,
      })),
    };
  },
);

function mrr(queries: readonly Prepared[], weights: RerankWeights): number {
  let sum = 0;
  for (const q of queries) {
    const scored = q.candidates.map((c, i) => ({ i, score: c.share + weighted(c.features, weights) }));
    scored.sort((a, b) => b.score - a.score || a.i - b.i);
    const at = scored.findIndex(({ i }) => q.expect.has(q.candidates[i]!.name));
    if (at >= 0) sum += 1 / (at + 1);
  }
  return sum / Math.max(1, queries.length);
}

const STEPS = [-0.4, -0.2, -0.1, -0.05, 0.05, 0.1, 0.2, 0.4];

/** Coordinate ascent from the current weights: take any single step that raises MRR, until none does. */
function fit(queries: readonly Prepared[]): RerankWeights {
  let weights = { ...RERANK_WEIGHTS };
  let best = mrr(queries, weights);
  for (let improved = true; improved;) {
    improved = false;
    for (const key of Object.keys(weights) as (keyof RerankWeights)[]) {
      for (const step of STEPS) {
        const trial = { ...weights, [key]: round(weights[key] + step) };
        const score = mrr(queries, trial);
        if (score > best + 1e-9) {
          [weights, best, improved] = [trial, score, true];
        }
      }
    }
  }
  return weights;
}

const FOLDS = 4;
let crossValidated = 0;
for (let fold = 0; fold < FOLDS; fold++) {
  const train = prepared.filter((_, i) => i % FOLDS !== fold);
  const test = prepared.filter((_, i) => i % FOLDS === fold);
  const weights = fit(train);
  crossValidated += mrr(test, weights) * test.length;
  report("search-fit", {
    figure: "fold",
    fold,
    train_mrr: round(mrr(train, weights)),
    test_mrr: round(mrr(test, weights)),
    ...weights,
  });
}
report("search-fit", {
  figure: "cross-validated mrr",
  current_weights: round(mrr(prepared, RERANK_WEIGHTS)),
  fitted_on_other_folds: round(crossValidated / prepared.length),
});
const weights = fit(prepared);
report("search-fit", { figure: "fitted weights", mrr: round(mrr(prepared, weights)), ...weights });
