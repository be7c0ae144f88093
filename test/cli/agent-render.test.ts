/** `toolrt agent` and `toolrt render` as a user runs them. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startFakeAnthropic } from "../../fixtures/fake-anthropic/server.ts";
import { runCli, runCliAsync } from "../helpers/cli.ts";
import { tempDir } from "../helpers/session-context.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures/transcripts");

/** Spawned without blocking, so the in-process fake server can answer. */
function runAgentCli(args: string[], env: Record<string, string>) {
  return runCliAsync(args, { env: { ANTHROPIC_API_KEY: "", ANTHROPIC_AUTH_TOKEN: "", ...env } });
}

describe("toolrt agent", () => {
  test("stream-json output in Claude Code's shapes, then rendered back for people", async () => {
    const fake = startFakeAnthropic({
      turns: [
        { error: { status: 529, type: "overloaded_error", message: "Overloaded", retryAfterSeconds: 0 } },
        { content: [{ type: "text", text: "All good." }] },
      ],
    });
    try {
      const state = tempDir();
      const run = await runAgentCli(
        ["--state-dir", state, "agent", "--output-format", "stream-json", "--model", "claude-test", "hello"],
        { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "k" },
      );
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      expect(lines.map((l) => `${l.type}${l.subtype ? `/${l.subtype}` : ""}`)).toEqual([
        "system/init",
        "system/api_retry",
        "assistant",
        "result/success",
      ]);
      expect(lines[3]).toMatchObject({ num_turns: 1, result: "All good.", permission_denials: [] });
      const rendered = runCli(["render", "-"], { stdin: run.stdout });
      expect(rendered.stdout).toContain("· API retry 1/8 in 0 ms: 529 Overloaded\n● All good.");
    } finally {
      await fake.close();
    }
  });

  test("without an API key it says which variable to set, exit 2", async () => {
    const run = await runAgentCli(["agent", "hi"], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("set ANTHROPIC_API_KEY");
  });

  test("an auth error ends the run with a clear message, exit 1", async () => {
    const fake = startFakeAnthropic({
      turns: [{ error: { status: 401, type: "authentication_error", message: "invalid x-api-key" } }],
    });
    try {
      const run = await runAgentCli(["--state-dir", tempDir(), "agent", "--json", "hi"], {
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: "bad",
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("authentication failed (401: invalid x-api-key)");
      expect(JSON.parse(run.stdout)).toMatchObject({ type: "result", subtype: "error_during_execution" });
    } finally {
      await fake.close();
    }
  });
});

describe("toolrt render", () => {
  test("a Claude Code transcript: grouped reads stay readable, unknown tools are stubs, denials shown", () => {
    const run = runCli(["render", join(FIXTURES, "claude-code-stream.jsonl")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('● mcp__tracker__create_issue {"project":"SHOP"');
    expect(run.stdout).toContain("● Searched for 1 pattern, listed 1 directory");
    expect(run.stdout).toContain("exit code 1: failed");
    expect(run.stdout).toContain("● Bash(git push origin main) rejected:");
    expect(run.stdout).toContain("· success after 7 turns · 1 permission denial");
  });

  test("a Codex transcript: commands as Bash, grep's exit 1 read as no matches", () => {
    const run = runCli(["render", join(FIXTURES, "codex-exec.jsonl")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("● Searched for 1 pattern, read 1 file");
    expect(run.stdout).toContain("exit code 1: no matches");
    expect(run.stdout).toContain('● mcp__ci__rerun_job {"job":"unit-tests"');
  });

  test("an unreadable file is a usage error", () => {
    const run = runCli(["render", "/nonexistent/x.jsonl"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("cannot read /nonexistent/x.jsonl");
  });
});
