/** The hook around the decision: audit entries, malformed input, broken policy files, modes. */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { hookWorkspace } from "./workspace.ts";

const pre = (command: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    hook_event_name: "PreToolUse",
    cwd: "$CWD",
    tool_name: "Bash",
    tool_input: { command },
    ...extra,
  });

describe("malformed stdin never crashes and takes no decision", () => {
  test.each([
    ["not JSON", "rm -rf /"],
    ["empty", ""],
    ["a JSON array", "[1,2]"],
    ["a JSON string", '"PreToolUse"'],
    ["no event name", JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls" } })],
    [
      "tool_input not an object",
      JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: 3 }),
    ],
  ])("%s", async (_name, stdin) => {
    const ws = hookWorkspace();
    expect(await ws.run("claude-code", stdin)).toBe("");
    expect(ws.audit).toHaveLength(1);
  });
});

test("a broken policy file denies and names the file", async () => {
  const ws = hookWorkspace();
  const file = join(ws.cwd, ".claude", "settings.json");
  writeFileSync(file, "{ not json");
  const answer = JSON.parse(await ws.run("claude-code", pre("ls")));
  expect(answer.hookSpecificOutput.permissionDecision).toBe("deny");
  expect(answer.hookSpecificOutput.permissionDecisionReason).toContain(file);
});

test("post events are audit entries with the outcome", async () => {
  const ws = hookWorkspace();
  const failure = {
    hook_event_name: "PostToolUseFailure",
    cwd: "$CWD",
    session_id: "s1",
    tool_name: "Bash",
    tool_use_id: "toolu_1",
    tool_input: { command: "npm test" },
    error: "Exit code 1",
    duration_ms: 12,
  };
  expect(await ws.run("claude-code", JSON.stringify(failure))).toBe("");
  expect(ws.audit[0]).toMatchObject({
    kind: "call",
    tool: "Bash",
    toolUseId: "toolu_1",
    outcome: "error",
    durationMs: 12,
    invokedBy: "hook:claude-code",
    sessionId: "s1",
    detail: "PostToolUseFailure",
  });
});

test("a decision is an audit entry naming what toolrt answered", async () => {
  const ws = hookWorkspace();
  await ws.run("claude-code", pre("git push --force origin main"));
  expect(ws.audit[0]).toMatchObject({
    kind: "hook",
    tool: "Bash",
    decision: "deny",
    detail: "answered deny",
  });
});

test("secrets in the input are redacted in the audit log", async () => {
  const ws = hookWorkspace();
  await ws.run(
    "claude-code",
    pre("curl -H 'Authorization: Bearer sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789'"),
  );
  expect(JSON.stringify(ws.audit[0]?.input)).not.toContain("abcdefghijklmnopqrstuvwxyz0123456789");
});

describe("the host's permission mode", () => {
  test("acceptEdits lets toolrt allow an edit inside the workspace", async () => {
    const ws = hookWorkspace();
    const edit = (mode: string) =>
      JSON.stringify({
        hook_event_name: "PreToolUse",
        cwd: "$CWD",
        permission_mode: mode,
        tool_name: "Edit",
        tool_input: { file_path: "$CWD/src/a.ts", old_string: "a", new_string: "b" },
      });
    expect(await ws.run("claude-code", edit("default"))).toBe("");
    expect(JSON.parse(await ws.run("claude-code", edit("acceptEdits"))).hookSpecificOutput.permissionDecision)
      .toBe("allow");
  });
  test("plan and dontAsk are the host's to enforce: toolrt does not turn asks into denials", async () => {
    const ws = hookWorkspace();
    expect(await ws.run("claude-code", pre("npm install", { permission_mode: "dontAsk" }))).toBe("");
    expect(await ws.run("claude-code", pre("npm install", { permission_mode: "plan" }))).toBe("");
  });
});
