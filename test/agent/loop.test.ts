/** The agent loop end to end: the real SDK, real HTTP and SSE, the scripted fake Messages API. */
import { describe, expect, test } from "bun:test";
import type { AssistantLine, StreamJsonLine, UserLine } from "../../src/agent/stream-json.ts";
import { deferredTool, echoTool, fakeSearchTool, waitingTool } from "./fake-tools.ts";
import { gate, runScripted, text, use, userResults } from "./harness.ts";

describe("toolrt agent loop", () => {
  test("multi-turn tool use, in Claude Code's stream-json shapes", async () => {
    const run = await runScripted({
      turns: [
        { content: [text("Looking."), use("toolu_a", "Echo", { value: "one" })] },
        { expect: { lastMessageIncludes: "Echo:one" }, content: [use("toolu_b", "Echo", { value: "two" })] },
        { expect: { lastMessageIncludes: "Echo:two" }, content: [text("Both echoed.")] },
      ],
    }, { tools: [echoTool()] });

    expect(run.fake.failures).toEqual([]);
    expect(run.result).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      num_turns: 3,
      result: "Both echoed.",
      terminal_reason: "completed",
      permission_denials: [],
    });
    expect(run.lines[0]).toMatchObject({ type: "system", subtype: "init", tools: ["Agent", "Echo"] });
    expect(run.lines.at(-1)?.type).toBe("result");
    const assistant = run.lines.filter((l): l is AssistantLine => l.type === "assistant");
    expect(assistant.every((l) => l.message.content.length === 1)).toBe(true);
    // The two blocks of the first API message share its id.
    expect(assistant[0]!.message.id).toBe(assistant[1]!.message.id);
    const results = run.lines.filter((l): l is UserLine => l.type === "user");
    expect(results.map((l) => l.tool_use_result)).toEqual(["Echo:one", "Echo:two"]);
    expect(run.result.usage.input_tokens).toBe(300);
  });

  test("the cache breakpoint sits on the last built-in tool and requests carry the key", async () => {
    const mcp = deferredTool("mcp__jira__create_issue");
    const run = await runScripted({ turns: [{ content: [text("ok")] }] }, {
      tools: [echoTool("Alpha"), echoTool("Zeta"), { ...mcp, alwaysLoad: true }],
    });
    const request = run.fake.requests[0]!;
    expect(request.headers["x-api-key"] ?? request.headers.authorization).toContain("test-key");
    expect(request.headers["anthropic-version"]).toBeString();
    expect(request.body.stream).toBe(true);
    const tools = request.body.tools!;
    expect(tools.map((t) => t.name)).toEqual(["Agent", "Alpha", "Zeta", "mcp__jira__create_issue"]);
    expect(tools.map((t) => t.cache_control !== undefined)).toEqual([false, false, true, false]);
  });

  test("parallel tool calls run together and report in call order", async () => {
    // Each waits until the other has started: run one after the other, they would never finish.
    const firstStarted = gate();
    const secondStarted = gate();
    const run = await runScripted({
      turns: [
        { content: [use("toolu_1", "First"), use("toolu_2", "Second")] },
        { expect: { lastMessageIncludes: "Second finished" }, content: [text("done")] },
      ],
    }, {
      tools: [
        waitingTool("First", { onStart: () => firstStarted.open(), until: secondStarted.promise }),
        waitingTool("Second", { onStart: () => secondStarted.open(), until: firstStarted.promise }),
      ],
    });
    expect(run.fake.failures).toEqual([]);
    expect(userResults(run.lines).map((r) => r.tool_use_id)).toEqual(["toolu_1", "toolu_2"]);
    expect(run.result.subtype).toBe("success");
  });

  test("a denied call becomes an error result and a permission denial", async () => {
    const run = await runScripted({
      turns: [
        { content: [use("toolu_w", "Writer", { value: "x" })] },
        { expect: { lastMessageIncludes: "Permission needed" }, content: [text("I may not write.")] },
      ],
    }, { tools: [echoTool("Writer", { readOnly: false })] });
    expect(run.fake.failures).toEqual([]);
    const [result] = userResults(run.lines);
    expect(result).toMatchObject({ tool_use_id: "toolu_w", is_error: true });
    const line = run.lines.find((l): l is UserLine => l.type === "user")!;
    expect(String(line.tool_use_result)).toStartWith("Error: Permission needed");
    expect(run.result.permission_denials).toEqual([
      { tool_name: "Writer", tool_use_id: "toolu_w", tool_input: { value: "x" } },
    ]);
  });

  test("a deferred tool is sent only after a search found it (fake client-side search tool)", async () => {
    const run = await runScripted({
      turns: [
        {
          label: "before search",
          expect: { toolsInclude: ["ToolSearch"], toolsExclude: ["mcp__jira__create_issue"] },
          content: [use("toolu_s", "ToolSearch", { query: "jira issue" })],
        },
        {
          label: "after search",
          expect: { toolsInclude: ["mcp__jira__create_issue"], lastMessageIncludes: "tool_reference" },
          content: [use("toolu_j", "mcp__jira__create_issue", { title: "flaky" })],
        },
        { expect: { lastMessageIncludes: "created flaky" }, content: [text("Filed.")] },
      ],
    }, { tools: [fakeSearchTool(["mcp__jira__create_issue"]), deferredTool("mcp__jira__create_issue")] });
    expect(run.fake.failures).toEqual([]);
    expect(run.result.subtype).toBe("success");
  });

  test("retries after a 529 overloaded answer and says so", async () => {
    const run = await runScripted({
      turns: [
        { error: { status: 529, type: "overloaded_error", message: "Overloaded" } },
        { error: { status: 429, type: "rate_limit_error", message: "Slow down", retryAfterSeconds: 0 } },
        { content: [text("Made it.")] },
      ],
    }, { tools: [] });
    expect(run.fake.requests).toHaveLength(3);
    const retries = run.lines.filter((l) => l.type === "system" && l.subtype === "api_retry");
    expect(retries).toMatchObject([
      { attempt: 1, max_retries: 3, error_status: 529 },
      { attempt: 2, max_retries: 3, error_status: 429, retry_delay_ms: 0 },
    ]);
    expect(run.result).toMatchObject({ subtype: "success", result: "Made it." });
  });

  test("an auth error is not retried and says which setting to check", async () => {
    const run = await runScripted({
      turns: [{ error: { status: 401, type: "authentication_error", message: "invalid x-api-key" } }],
    }, { tools: [] });
    expect(run.fake.requests).toHaveLength(1);
    expect(run.result).toMatchObject({
      subtype: "error_during_execution",
      is_error: true,
      terminal_reason: "api_error",
    });
    expect(run.result.result).toContain("authentication failed");
    expect(run.result.result).toContain("ANTHROPIC_API_KEY");
  });

  test("stops at --max-turns with error_max_turns", async () => {
    const run = await runScripted({
      turns: [{ content: [use("toolu_1", "Echo", { value: "a" })] }, { content: [text("never")] }],
    }, { tools: [echoTool()], maxTurns: 1 });
    expect(run.result).toMatchObject({ subtype: "error_max_turns", num_turns: 1, is_error: true });
    expect(run.fake.requests).toHaveLength(1);
  });

  test("interruption stops cancel tools, lets block tools finish, and ends the turn cleanly", async () => {
    const interrupt = new AbortController();
    const cancelStarted = gate();
    const blockStarted = gate();
    const releaseBlock = gate();
    Promise.all([cancelStarted.promise, blockStarted.promise]).then(() => {
      interrupt.abort();
      releaseBlock.open();
    });
    const run = await runScripted({
      turns: [
        { content: [use("toolu_c", "Cancelable"), use("toolu_b", "Blocking")] },
        { content: [text("must not be asked for")] },
      ],
    }, {
      tools: [
        waitingTool("Cancelable", { interrupt: "cancel", onStart: () => cancelStarted.open() }),
        waitingTool("Blocking", {
          interrupt: "block",
          onStart: () => blockStarted.open(),
          until: releaseBlock.promise,
        }),
      ],
      signal: interrupt.signal,
    });
    expect(run.fake.requests).toHaveLength(1);
    const results = userResults(run.lines);
    expect(results.map((r) => [r.tool_use_id, r.is_error])).toEqual([["toolu_c", true], ["toolu_b", false]]);
    expect(results[0]!.content[0]!.text).toContain("interrupted");
    expect(run.result).toMatchObject({ terminal_reason: "interrupted", subtype: "error_during_execution" });
  });
});

export function linesOf(lines: StreamJsonLine[], type: StreamJsonLine["type"]) {
  return lines.filter((l) => l.type === type);
}
