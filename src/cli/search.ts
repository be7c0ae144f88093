/**
 * `toolrt search [--json] [--k N] [--catalog FILE] [--batch FILE|-] '<query>'`: ToolSearch over
 * the deferred pool, or over a catalog file of MCP tool definitions, limited to what the policy's
 * `tools.search` lets be found. The index is cached in the state dir, keyed by the catalog's bytes
 * and that scope, so a repeated call skips parsing and indexing.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { isDeferredIn } from "../pool/assemble.ts";
import { cachedIndex, cachedToolIndex, contentKey } from "../search/cache.ts";
import { catalogTools, parseCatalog } from "../search/catalog.ts";
import { DEFAULT_MAX_RESULTS } from "../tools/tool-search/schema.ts";
import { ToolIndex } from "../search/tool-index.ts";
import { scopeNote, searchableTools } from "../search/scope.ts";
import type { SearchScope } from "../policy/policy.ts";
import type { AnyTool } from "../tool/types.ts";
import { ConfigError, UsageError } from "./errors.ts";
import { globalsOf } from "./globals.ts";
import { type GlobalOptions } from "./options.ts";
import { loadForCli, openDefaultSession } from "./runtime.ts";

interface SearchOptions {
  json?: boolean;
  k?: string;
  catalog?: string;
  batch?: string;
}

export function register(program: Command): void {
  program
    .command("search")
    .description("search the deferred tools (keywords, 'select:A,B', '+word keywords')")
    .argument("[query]", "the query; omit with --batch")
    .option("--json", "machine-readable output")
    .option("--k <n>", `at most this many results (default ${DEFAULT_MAX_RESULTS})`)
    .option("--catalog <file>", "search a catalog of MCP tool definitions (mcp-catalog.json shape)")
    .option("--batch <file>", "one query per line from FILE (or - for stdin), one JSON line out each")
    .action(async (query: string | undefined, opts: SearchOptions, command: Command) => {
      const k = parseK(opts.k);
      if (opts.batch === undefined && query === undefined) {
        throw new UsageError("search needs a query or --batch");
      }
      const { index, restricted } = await loadIndex(opts.catalog, globalsOf(command));
      const answerOf = (line: string) => ({
        ...answer(index, line, k),
        ...(restricted ? { restricted } : {}),
      });
      if (opts.batch !== undefined) {
        const lines = readBatch(opts.batch);
        process.stdout.write(lines.map((line) => JSON.stringify(answerOf(line))).join("\n") + "\n");
        return;
      }
      const result = answerOf(query!);
      if (opts.json) console.log(JSON.stringify(result, null, 2));
      else console.log(humanLines(result).join("\n"));
    });
}

interface SearchAnswer {
  query: string;
  results: { name: string; score: number }[];
  missing?: string[];
  unmatchedRequired?: string[];
  /** Why nothing can be found: the policy's `tools.search` leaves no tool. */
  restricted?: string;
}

function answer(index: ToolIndex, query: string, k: number): SearchAnswer {
  const outcome = index.search(query, k);
  return {
    query,
    results: outcome.hits,
    ...(outcome.missing.length > 0 ? { missing: outcome.missing } : {}),
    ...(outcome.unmatchedRequired.length > 0 ? { unmatchedRequired: outcome.unmatchedRequired } : {}),
  };
}

function parseK(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_RESULTS;
  const k = Number(value);
  if (!Number.isInteger(k) || k < 1) throw new UsageError(`--k wants a positive whole number, not ${value}`);
  return k;
}

/** The index of what the policy's search scope lets be found, and why it is empty when the scope empties it. */
async function loadIndex(
  catalogPath: string | undefined,
  globals: GlobalOptions,
): Promise<{ index: ToolIndex; restricted?: string }> {
  let index: ToolIndex;
  let scope: SearchScope;
  if (catalogPath === undefined) {
    const pool = await deferredPoolTools(globals);
    scope = pool.scope;
    index = cachedToolIndex(globals.stateDir, searchableTools(pool.tools, scope));
  } else {
    const bytes = readCatalog(catalogPath);
    scope = loadForCli(globals).policy.searchScope();
    // Keyed by the catalog's bytes and the scope: a cache hit parses nothing.
    const key = contentKey(`${contentKey(bytes)}\0${JSON.stringify(scope)}`);
    index = cachedIndex(
      globals.stateDir,
      key,
      () => ToolIndex.build(searchableTools(parsedCatalog(catalogPath, bytes), scope)),
    );
  }
  const restricted = scopeNote(scope, index.names.length);
  return { index, ...(restricted ? { restricted } : {}) };
}

function readCatalog(catalogPath: string): Buffer {
  try {
    return readFileSync(catalogPath);
  } catch (error) {
    throw new UsageError(`cannot read catalog ${catalogPath}: ${(error as Error).message}`);
  }
}

function parsedCatalog(catalogPath: string, bytes: Buffer): AnyTool[] {
  try {
    return catalogTools(parseCatalog(bytes.toString("utf8")));
  } catch (error) {
    throw new ConfigError(`${catalogPath}: ${(error as Error).message}`);
  }
}

/** The deferred tools of the workspace's pool: built-ins, MCP servers and plugins, as policy leaves them. */
async function deferredPoolTools(globals: GlobalOptions) {
  const { pool, runtime, close } = await openDefaultSession(globals, "cli");
  await close();
  const tools = pool.current.tools.filter((tool) => isDeferredIn(pool.current, tool));
  return { tools, scope: runtime.policy.policy.searchScope() };
}

function readBatch(source: string): string[] {
  const text = readFileSync(source === "-" ? 0 : source, "utf8");
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line) => line.replace(/\r$/, ""));
}

function humanLines(result: SearchAnswer): string[] {
  const lines = result.results.map((hit) => `${hit.score.toFixed(3)}  ${hit.name}`);
  if (result.restricted) lines.push(result.restricted);
  if (result.missing) lines.push(`not found: ${result.missing.join(", ")}`);
  if (result.unmatchedRequired) lines.push(`no tool name contains: ${result.unmatchedRequired.join(", ")}`);
  if (lines.length === 0) lines.push("no matching tools");
  return lines;
}
