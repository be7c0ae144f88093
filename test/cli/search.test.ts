import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { SMALL_CATALOG } from "../search/helpers.ts";

const stateDir = mkdtempSync(join(tmpdir(), "toolrt-cli-search-"));
const search = (args: string[], stdin?: string) =>
  runCli(
    ["--state-dir", stateDir, "search", "--catalog", SMALL_CATALOG, ...args],
    stdin === undefined ? {} : { stdin },
  );

describe("toolrt search", () => {
  test("--json gives {query, results:[{name, score}]} best first, at most k", () => {
    const run = search(["--json", "--k", "2", "open a PR"]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.query).toBe("open a PR");
    expect(out.results).toHaveLength(2);
    expect(out.results[0]).toEqual({ name: "mcp__github__create_pull_request", score: 1 });
    expect(out.results[1].score).toBeLessThanOrEqual(1);
  });

  test("the index is cached in the state dir by the catalog's content", () => {
    expect(readdirSync(join(stateDir, "search-index")).length).toBe(1);
    expect(search(["+slack send"]).stdout).toContain("mcp__slack__slack_post_message");
    expect(readdirSync(join(stateDir, "search-index")).length).toBe(1);
  });

  test("--batch: one JSON line per input line, same order, empty lines included", () => {
    const run = search(["--batch", "-"], "+slack send\n\nselect:mcp__github__get_me,nope\n");
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(lines.map((l) => l.query)).toEqual(["+slack send", "", "select:mcp__github__get_me,nope"]);
    expect(lines[0].results[0].name).toBe("mcp__slack__slack_post_message");
    expect(lines[1].results).toEqual([]);
    expect(lines[2]).toEqual({
      query: "select:mcp__github__get_me,nope",
      results: [{ name: "mcp__github__get_me", score: 1 }],
      missing: ["nope"],
    });
  });

  test("bad usage and a broken catalog exit 2", () => {
    expect(search(["--k", "0", "x"]).code).toBe(2);
    expect(search([]).code).toBe(2);
    const broken = runCli([
      "--state-dir",
      stateDir,
      "search",
      "--catalog",
      join(import.meta.dir, "search.test.ts"),
      "x",
    ]);
    expect(broken.code).toBe(2);
  });

  test("without a catalog it searches the deferred pool", () => {
    const found = runCli(["--state-dir", stateDir, "search", "--json", "stdin"]);
    expect(found.code).toBe(0);
    expect(JSON.parse(found.stdout).results[0]).toEqual({ name: "WriteStdin", score: 1 });
    // A word neither the pool nor the learned vocabulary knows finds nothing.
    const none = runCli(["--state-dir", stateDir, "search", "--json", "xyzzy"]);
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout)).toEqual({ query: "xyzzy", results: [] });
  });

  test("the policy's tools.search and tools.searchServers limit what is found", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolrt-cli-search-scope-"));
    const policy = (tools: object) => {
      const file = join(dir, `${JSON.stringify(tools).length}-${Math.random()}.json`);
      writeFileSync(file, JSON.stringify({ tools }));
      return file;
    };
    // The unrestricted index of this catalog is already cached: a narrower scope must not reuse it.
    const onlySlack = search(["--json", "--policy", policy({ searchServers: ["slack"] }), "open a PR"]);
    expect(onlySlack.code).toBe(0);
    const names = JSON.parse(onlySlack.stdout).results.map((r: { name: string }) => r.name);
    expect(names.every((name: string) => name.startsWith("mcp__slack__"))).toBe(true);
    const none = search(["--json", "--policy", policy({ search: "builtins-only" }), "open a PR"]);
    expect(none.code).toBe(0);
    const out = JSON.parse(none.stdout);
    expect(out.results).toEqual([]);
    expect(out.restricted).toContain("restricted by policy");
    expect(search(["--policy", policy({ search: "everything" }), "x"]).code).toBe(2);
  });
});
