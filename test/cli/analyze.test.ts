import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";

const FIELDS = [
  "command",
  "parse",
  "commands",
  "checks",
  "readOnly",
  "classification",
  "warnings",
  "prefix",
  "suggestions",
  "paths",
];

describe("toolrt analyze", () => {
  test("--json gives the cli.md shape", () => {
    const run = runCli(["analyze", "--json", "NODE_ENV=prod git commit -m x > out.txt"]);
    expect(run.code).toBe(0);
    const a = JSON.parse(run.stdout);
    for (const field of FIELDS) expect(a).toHaveProperty(field);
    expect(a.commands[0]).toMatchObject({
      argv: ["git", "commit", "-m", "x"],
      env: { NODE_ENV: "prod" },
      redirects: [{ op: ">", target: "out.txt" }],
    });
    expect(a.prefix).toBe("git commit");
    expect(a.suggestions).toEqual(["Bash(git commit:*)"]);
    expect(a.paths).toEqual([{ command: "git", path: "out.txt", access: "write" }]);
  });
  test("human output names checks, catastrophes and paths", () => {
    const run = runCli(["analyze", "echo $(id) && rm -rf /"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("parse: too-complex");
    expect(run.stdout).toContain("check 8 DANGEROUS_PATTERNS_COMMAND_SUBSTITUTION");
    expect(run.stdout).toContain("catastrophic (rm-root)");
    expect(run.stdout).toContain("write: / (rm)");
  });
  test("--batch: one JSON object per input line, same order, also for empty lines", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolrt-analyze-"));
    const file = join(dir, "cmds.txt");
    writeFileSync(file, "git status\n\nrm -rf /\n");
    const run = runCli(["analyze", "--batch", file]);
    expect(run.code).toBe(0);
    const out = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(out.map((a) => a.command)).toEqual(["git status", "", "rm -rf /"]);
    expect(out[0].readOnly).toBe(true);
    expect(out[2].catastrophic[0].id).toBe("rm-root");
  });
  test("--batch - --batch-format json-lines: commands with newlines; a bad line yields an error object", () => {
    const run = runCli(["analyze", "--batch", "-", "--batch-format", "json-lines"], {
      stdin: `"cat <<EOF\\nx\\nEOF"\nnot json\n42\n"ls"\n`,
    });
    expect(run.code).toBe(0);
    const out = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(out).toHaveLength(4);
    expect(out[0].command).toBe("cat <<EOF\nx\nEOF");
    expect(out[1]).toMatchObject({ line: 2 });
    expect(out[1].error).toContain("JSON");
    expect(out[2]).toMatchObject({ line: 3, error: "expected a JSON string literal" });
    expect(out[3].command).toBe("ls");
  });
  test("usage errors exit 2", () => {
    expect(runCli(["analyze"]).code).toBe(2);
    expect(runCli(["analyze", "--batch", "/nonexistent/x"]).code).toBe(2);
    expect(runCli(["analyze", "--batch", "-", "ls"], { stdin: "" }).code).toBe(2);
    expect(runCli(["analyze", "--batch-format", "xml", "ls"]).code).toBe(2);
  });
});
