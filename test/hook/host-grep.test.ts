/**
 * A host's own Grep prints what it finds; toolrt cannot leave files out of it. With the default
 * policy, Claude Code's Grep over a workspace holding `server.key` would print the key, so toolrt
 * asks when the files the search covers include one a Read rule covers. Files `.gitignore` hides
 * are not searched (as rg does), and neither are those outside the `path` or `glob`.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { hookWorkspace } from "./workspace.ts";

function workspace() {
  const ws = hookWorkspace();
  for (
    const [name, content] of Object.entries({
      "server.key": "FAKE-KEY\n",
      "config/.env.json": '{"API_KEY":"FAKE"}\n',
      ".gitignore": ".env\n",
      ".env": "API_KEY=FAKE\n",
      "src/a.ts": "// FAKE\n",
      "docs/a.md": "FAKE\n",
    })
  ) {
    mkdirSync(dirname(join(ws.cwd, name)), { recursive: true });
    writeFileSync(join(ws.cwd, name), content);
  }
  ws.env.CLAUDE_PROJECT_DIR = ws.cwd;
  return ws;
}

const grep = (input: Record<string, unknown>) =>
  JSON.stringify({
    session_id: "s",
    cwd: "$CWD",
    hook_event_name: "PreToolUse",
    tool_name: "Grep",
    tool_input: input,
  });

function answer(out: string): { decision: string; reason: string } {
  const o = JSON.parse(out).hookSpecificOutput;
  return { decision: o.permissionDecision, reason: o.permissionDecisionReason };
}

describe("Claude Code's Grep in hook mode", () => {
  test("over files a Read rule covers: asks, naming them", async () => {
    const ws = workspace();
    const all = answer(await ws.run("claude-code", grep({ pattern: "FAKE", path: "." })));
    expect(all.decision).toBe("ask");
    expect(all.reason).toContain("server.key (Read(*.key) asks)");
    expect(all.reason).toContain("config/.env.json (Read(.env.*) asks)");
    const json = answer(await ws.run("claude-code", grep({ pattern: "FAKE", glob: "*.json" })));
    expect(json.decision).toBe("ask");
    expect(json.reason).not.toContain("server.key");
  });
  test("a path, glob or type that leaves them out, and ignored files, are allowed", async () => {
    const ws = workspace();
    for (
      const input of [
        { pattern: "FAKE", path: "src" },
        { pattern: "FAKE", path: ".", glob: "*.md" },
        { pattern: "FAKE", type: "ts" },
        { pattern: "FAKE", path: ".env" },
      ]
    ) {
      const a = answer(await ws.run("claude-code", grep(input)));
      expect(a.decision, `${JSON.stringify(input)}: ${a.reason}`).toBe(
        input.path === ".env" ? "ask" : "allow",
      );
    }
  });
});
