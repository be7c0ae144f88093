/**
 * The search benchmarks' inputs: the public MCP catalog (fixtures/search/mcp-catalog.json, a copy of
 * shared/data/mcp-catalog.json; sources and licenses in its README) and the query sets of
 * fixtures/search, with expected tools as `server/tool` ids turned into tool names.
 * - tuning: two thirds of the first set, the only queries weights and tables are fit on;
 * - heldout: the first set's every third query;
 * - heldout-2, heldout-3: sets written and frozen before the second and third rounds of tuning;
 * - dev-4, dev-5: written before the fourth and fifth rounds, which studied their misses (development
 *   sets, not held out);
 * - dev-6, heldout-6: written together by someone who never saw the ranking code; dev-6 is for
 *   tuning, heldout-6 is the test set and only its totals are ever printed;
 * - heldout-7, heldout-8: written blind by someone with no access to the ranking code, one query per
 *   sampled target (README beside each), frozen before the learned vocabulary model was fitted;
 *   never trained or tuned on.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { mcpToolName } from "../../src/mcp/definition-tool.ts";
import { type Catalog, catalogTools, parseCatalog } from "../../src/search/catalog.ts";
import type { AnyTool } from "../../src/tool/types.ts";

export interface Query {
  q: string;
  kind: string;
  expect: string[];
}

export type SetName =
  | "tuning"
  | "dev-4"
  | "dev-5"
  | "dev-6"
  | "heldout"
  | "heldout-2"
  | "heldout-3"
  | "heldout-6"
  | "heldout-7"
  | "heldout-8";

/** The catalog the query sets were written against, shipped with the repository. */
export const PUBLIC_CATALOG = join(import.meta.dir, "../../fixtures/search/mcp-catalog.json");

const root = join(import.meta.dir, "../..");

export function loadSearchBench(catalogArgument: string | undefined): {
  catalog: Catalog;
  tools: AnyTool[];
  sets: Record<SetName, Query[]>;
} {
  const catalogPath = catalogArgument ?? PUBLIC_CATALOG;
  const catalog = parseCatalog(readFileSync(catalogPath, "utf8"));
  const tools = catalogTools(catalog);
  const known = new Set(tools.map((t) => t.name));
  const readQueries = (file: string): Query[] =>
    readFileSync(join(root, "fixtures/search", file), "utf8").trim().split("\n").map((line) => {
      const q = JSON.parse(line) as Query;
      const expect = q.expect.map((id) => {
        const [server, tool] = id.split("/") as [string, string];
        return mcpToolName(server, tool);
      });
      for (const name of expect) if (!known.has(name)) throw new Error(`query ${q.q}: no tool ${name}`);
      return { ...q, expect };
    });
  const firstSet = readQueries("queries.jsonl");
  const sets: Record<SetName, Query[]> = {
    tuning: firstSet.filter((_, i) => i % 3 !== 2),
    "dev-4": readQueries("queries-dev-4.jsonl"),
    "dev-5": readQueries("queries-dev-5.jsonl"),
    "dev-6": readQueries("queries-dev-6.jsonl"),
    heldout: firstSet.filter((_, i) => i % 3 === 2),
    "heldout-2": readQueries("queries-heldout-2.jsonl"),
    "heldout-3": readQueries("queries-heldout-3.jsonl"),
    "heldout-6": readQueries("queries-heldout-6.jsonl"),
    "heldout-7": readQueries("queries-heldout-7.jsonl"),
    "heldout-8": readQueries("queries-heldout-8.jsonl"),
  };
  return { catalog, tools, sets };
}
