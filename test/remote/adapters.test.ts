import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fromClaudeCode } from "../../src/remote/claude-code.ts";
import { fromCodex, unwrapShell } from "../../src/remote/codex.ts";
import { parseTranscript } from "../../src/remote/parse.ts";

const fixture = (name: string) =>
  readFileSync(join(import.meta.dir, "../../fixtures/transcripts", name), "utf8");

describe("Claude Code stream-json", () => {
  test("blocks of one API message merge; tool results are found by shape, with their structured output", () => {
    const t = parseTranscript(fixture("claude-code-stream.jsonl"));
    expect(t.source).toBe("claude-code");
    const [, first] = t.messages;
    expect(first!.role).toBe("assistant");
    expect(first!.content.map((b) => b.type)).toEqual(["text", "tool_use", "tool_use", "tool_use"]);
    const results = t.messages.filter((m) => m.content.some((b) => b.type === "tool_result"));
    expect(results).toHaveLength(9);
    expect(results[0]!.toolOutputs?.toolu_01ReadA).toMatchObject({ type: "text", file: { numLines: 3 } });
  });

  test("a result line that repeats the last answer is dropped; denials and errors are kept", () => {
    const base = { type: "assistant", message: { id: "m", content: [{ type: "text", text: "Done." }] } };
    const ok = { type: "result", subtype: "success", result: "Done.", num_turns: 1, permission_denials: [] };
    expect(fromClaudeCode([base, ok]).messages).toHaveLength(1);
    const failed = { ...ok, subtype: "error_max_turns", is_error: true };
    expect(fromClaudeCode([base, failed]).messages.at(-1)!.content[0]).toEqual({
      type: "text",
      text: "error_max_turns after 1 turns",
    });
  });

  test("a tool result is recognized without any parent id, and thinking is not shown", () => {
    const t = fromClaudeCode([
      { type: "assistant", message: { id: "a", content: [{ type: "thinking", thinking: "hm" }] } },
      { type: "user", message: { content: [{ type: "tool_result", tool_use_id: "x", content: "out" }] } },
    ]);
    expect(t.messages).toEqual([{
      role: "user",
      content: [{
        type: "tool_result",
        tool_use_id: "x",
        content: [{ type: "text", text: "out" }],
        is_error: false,
      }],
    }]);
  });

  test("toolrt's own transcripts are recognized by their init line", () => {
    expect(fromClaudeCode([{ type: "system", subtype: "init", toolrt_version: "0.1.0" }]).source).toBe(
      "toolrt",
    );
  });
});

describe("Codex exec --json", () => {
  test("commands become Bash calls with output and exit code; MCP calls keep server and tool", () => {
    const t = parseTranscript(fixture("codex-exec.jsonl"));
    expect(t.source).toBe("codex");
    const uses = t.messages.flatMap((m) => m.content.filter((b) => b.type === "tool_use"));
    expect(uses.map((u) => (u as { name: string }).name)).toEqual([
      "Bash",
      "Bash",
      "Bash",
      "apply_patch",
      "Bash",
      "mcp__ci__rerun_job",
    ]);
    expect((uses[0] as { input: unknown }).input).toEqual({ command: 'rg -n "retryDelay" src' });
    const grep = t.messages.find((m) => m.toolOutputs?.item_3);
    expect(grep!.toolOutputs!.item_3).toMatchObject({ exitCode: 1 });
    expect(grep!.content[0]).toMatchObject({ type: "tool_result", is_error: true });
  });

  test("turn bookkeeping and reasoning are dropped", () => {
    const t = fromCodex([
      { type: "turn.started" },
      { type: "item.completed", item: { id: "r", type: "reasoning", text: "x" } },
      { type: "turn.completed", usage: {} },
    ]);
    expect(t.messages).toEqual([]);
  });

  test("the bash -lc wrapper is taken off, quotes restored", () => {
    expect(unwrapShell(`bash -lc 'echo '\\''hi'\\'''`)).toBe("echo 'hi'");
    expect(unwrapShell(`/bin/bash -lc "ls \\"a b\\""`)).toBe('ls "a b"');
    expect(unwrapShell("ls -la")).toBe("ls -la");
  });

  test("a line that is not JSON is reported, not fatal", () => {
    const t = parseTranscript('{"type":"thread.started","thread_id":"t"}\nnot json\n');
    expect(t.messages.at(-1)!.content[0]).toEqual({
      type: "text",
      text: "line 2 is not JSON and was skipped",
    });
  });
});
