import { describe, expect, test } from "bun:test";
import { runCli } from "../helpers/cli.ts";

const FIELDS = [
  "name",
  "origin",
  "deferred",
  "alwaysLoad",
  "readOnly",
  "concurrencySafe",
  "aliases",
  "description",
  "inputSchema",
];

function toolsJson(...args: string[]) {
  const run = runCli(["tools", "--json", ...args]);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, any>[];
}

describe("toolrt tools", () => {
  test("--json lists every built-in with every field of the CLI contract, sorted", () => {
    const tools = toolsJson();
    for (const tool of tools) for (const field of FIELDS) expect(tool).toHaveProperty(field);
    const names = tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(
      expect.arrayContaining(["Edit", "Glob", "Grep", "Read", "TodoWrite", "ToolSearch", "Write"]),
    );
    expect(tools.every((t) => t.origin === "builtin")).toBe(true);
  });
  test("deferred tools appear only with --all, with the reason", () => {
    expect(toolsJson().some((t) => t.name === "WebFetch")).toBe(false);
    const webFetch = toolsJson("--all").find((t) => t.name === "WebFetch");
    expect(webFetch).toMatchObject({ deferred: true, deferReason: "the tool is marked shouldDefer" });
  });
  test("per-tool answers are the tool's own", () => {
    const byName = Object.fromEntries(toolsJson().map((t) => [t.name, t]));
    expect(byName.Read).toMatchObject({ readOnly: true, concurrencySafe: true });
    expect(byName.Write).toMatchObject({ readOnly: false, concurrencySafe: false });
    expect(byName.Edit.inputSchema.required).toEqual(["file_path", "old_string", "new_string"]);
  });
  test("--mode plan hides editing tools; --mode simple keeps Read and Edit", () => {
    const plan = toolsJson("--mode", "plan").map((t) => t.name);
    expect(plan).toContain("Read");
    expect(plan).not.toContain("Write");
    expect(plan).not.toContain("Edit");
    expect(toolsJson("--mode", "simple").map((t) => t.name)).toEqual(["Edit", "Read"]);
  });
  test("a blanket deny removes the tool before the model sees it; human output says why", () => {
    expect(toolsJson("--deny", "Write").map((t) => t.name)).not.toContain("Write");
    const human = runCli(["--deny", "Write", "tools"]);
    expect(human.stdout).toContain("hidden: Write (denied by Write from cli");
  });
});
