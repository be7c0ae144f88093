/**
 * The search benchmarks' inputs: the public MCP catalog (shared/data/mcp-catalog.json) and the
 * query sets of fixtures/search, with expected tools as `server/tool` ids turned into tool names.
 * - tuning: two thirds of the first set, the only queries weights and tables are fit on;
 * - heldout: the first set's every third query;
 * - heldout-2, heldout-3: sets written and frozen before the second and third rounds of tuning;
 * - dev-4: written before the fourth round, which studied its misses (a development set, not held out).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { mcpToolName } from "../../src/mcp/definition-tool.ts";
import { type Catalog, catalogTools, parseCatalog } from "../../src/search/catalog.ts";
import type { AnyTool } from "../../src/tool/types.ts";

export interface Query {
  q: string;
  kind: string;
  expect: string[];
}

export type SetName = "tuning" | "dev-4" | "heldout" | "heldout-2" | "heldout-3";

const root = join(import.meta.dir, "../..");

export function loadSearchBench(catalogArgument: string | undefined): {
  catalog: Catalog;
  tools: AnyTool[];
  sets: Record<SetName, Query[]>;
} {
  const catalogPath = catalogArgument ??
    [join(root, "../shared/data/mcp-catalog.json"), join(root, "../../shared/data/mcp-catalog.json")]
      .find(existsSync);
  if (!catalogPath) {
    console.error("no catalog; pass the path of shared/data/mcp-catalog.json");
    process.exit(2);
  }
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
    heldout: firstSet.filter((_, i) => i % 3 === 2),
    "heldout-2": readQueries("queries-heldout-2.jsonl"),
    "heldout-3": readQueries("queries-heldout-3.jsonl"),
  };
  return { catalog, tools, sets };
}
