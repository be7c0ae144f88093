import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { tempDir } from "../helpers/session-context.ts";

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
    const human = runCli(["tools", "--all"]).stdout.split("\n").find((line) => line.startsWith("WebFetch"));
    expect(human).toContain("deferred: the tool is marked shouldDefer]");
  });
  test("per-tool answers are the tool's own", () => {
    const byName = Object.fromEntries(toolsJson().map((t) => [t.name, t]));
    expect(byName.Read).toMatchObject({ readOnly: true, concurrencySafe: true });
    expect(byName.Write).toMatchObject({ readOnly: false, concurrencySafe: false });
    expect(byName.Edit.inputSchema.required).toEqual(["file_path", "old_string", "new_string"]);
  });
  test("--mode plan hides editing tools; --mode simple keeps Bash, Read and Edit", () => {
    const plan = toolsJson("--mode", "plan").map((t) => t.name);
    expect(plan).toContain("Read");
    expect(plan).not.toContain("Write");
    expect(plan).not.toContain("Edit");
    expect(toolsJson("--mode", "simple").map((t) => t.name)).toEqual(["Bash", "Edit", "Read"]);
  });
  test("a blanket deny removes the tool before the model sees it; human output says why", () => {
    expect(toolsJson("--deny", "Write").map((t) => t.name)).not.toContain("Write");
    const human = runCli(["--deny", "Write", "tools"]);
    expect(human.stdout).toContain("hidden: Write (denied by Write (rule --deny[0], cli: command line))");
  });
  test("a call of a tool a policy rule removed gets that rule's reason, id and file", () => {
    const file = join(tempDir(), "p.json");
    const reason = "writing through this tool is not allowed here";
    writeFileSync(
      file,
      JSON.stringify({ rules: [{ id: "no-write", effect: "deny", match: ["Write"], reason }] }),
    );
    const run = runCli(["--policy", file, "run", "Write", JSON.stringify({ file_path: "x", content: "" })]);
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(
      `Write is not available in this session: ${reason} — denied by Write (rule no-write, flag: ${file})`,
    );
  });
});

describe("deferral overrides from policy files", () => {
  test("a policy's tools.alwaysLoad and tools.defer change what loads, with the reason", () => {
    const dir = tempDir();
    const file = join(dir, "p.json");
    writeFileSync(file, JSON.stringify({ tools: { alwaysLoad: ["WebFetch"], defer: ["Grep"] } }));
    const run = runCli(["--policy", file, "tools", "--json", "--all"]);
    expect(run.code).toBe(0);
    const byName = Object.fromEntries(JSON.parse(run.stdout).map((t: { name: string }) => [t.name, t]));
    expect(byName.WebFetch).toMatchObject({ deferred: false, deferReason: "settings alwaysLoad: WebFetch" });
    expect(byName.Grep).toMatchObject({ deferred: true, deferReason: "settings defer: Grep" });
    const human = runCli(["--policy", file, "tools", "--all"]).stdout;
    expect(human).toMatch(/^WebFetch .*always loaded: settings alwaysLoad: WebFetch\]$/m);
    expect(human).toMatch(/^Grep .*deferred: settings defer: Grep\]$/m);
  });
  test("a bad tools section is a positioned error, exit 2", () => {
    const dir = tempDir();
    const file = join(dir, "p.json");
    writeFileSync(file, JSON.stringify({ tools: { alwaysload: ["x"] } }, null, 2));
    const run = runCli(["--policy", file, "tools"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("p.json:3:5");
    expect(run.stderr).toContain("expected one of: alwaysLoad, defer, search, searchServers");
  });
});
