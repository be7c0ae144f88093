/**
 * The work-loss guard through `toolrt hook` with Claude Code PreToolUse payloads: in a workspace
 * whose Claude Code settings allow `Bash(git:*)`, every spelling of a work-losing git command gets
 * an ask with the reason and the rule id (the host then prompts), while toolrt leaves its safe
 * neighbours to the host's allow; a user policy that disables the rule by id does the same.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hookWorkspace } from "./workspace.ts";

function payload(command: string): string {
  return JSON.stringify({
    session_id: "3f1c2a9e-5b7d-4e21-9c0a-1d2e3f4a5b6c",
    transcript_path: "/home/dev/.claude/projects/-work-app/3f1c2a9e.jsonl",
    cwd: "$CWD",
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "git" },
    tool_use_id: "toolu_01AbCdEfGhIjKlMnOpQrStUv",
  });
}

function gitAllowedWorkspace(userPolicy?: unknown) {
  const ws = hookWorkspace();
  writeFileSync(
    join(ws.cwd, ".claude", "settings.json"),
    JSON.stringify({ permissions: { allow: ["Bash(git:*)"] } }),
  );
  if (userPolicy !== undefined) {
    mkdirSync(join(ws.home, ".config", "toolrt"), { recursive: true });
    writeFileSync(join(ws.home, ".config", "toolrt", "policy.json"), JSON.stringify(userPolicy));
  }
  return ws;
}

async function answer(ws: ReturnType<typeof hookWorkspace>, command: string) {
  const out = await ws.run("claude-code", payload(command));
  return out === "" ? undefined : JSON.parse(out).hookSpecificOutput;
}

const ASKED: [string, string][] = [
  ["git push --force origin main", "git-push-force"],
  ["git push --forc origin main", "git-push-force"],
  ["git -C . push origin +main", "git-push-force"],
  ["git reset --har HEAD~1", "git-reset-hard"],
  ["/usr/bin/git '--git-dir=.git' reset --hard", "git-reset-hard"],
  ["env GIT_TRACE=0 git -c color.ui=never reset --hard", "git-reset-hard"],
  ["git checkout -- .", "git-checkout-discard"],
  ["git checkout HEAD~1 -- src", "git-checkout-discard"],
  ["git restore src/main.ts", "git-restore-worktree"],
  ["git clean -df", "git-clean"],
  ["git stash clear", "git-stash-drop"],
  ["git branch --delete --force topic", "git-branch-force-delete"],
];

describe("Claude Code allows Bash(git:*)", () => {
  for (const [command, id] of ASKED) {
    test(`${command}: ask (${id})`, async () => {
      const ws = gitAllowedWorkspace();
      const got = await answer(ws, command);
      expect(got?.permissionDecision).toBe("ask");
      expect(got?.permissionDecisionReason).toContain(`rule ${id},`);
    });
  }

  // No answer: Claude Code's own permission flow runs, and its Bash(git:*) allow runs the command.
  test("the safe neighbours are left to the host's allow", async () => {
    const ws = gitAllowedWorkspace();
    for (
      const command of [
        "git push --force-with-lease origin main",
        "git reset --soft HEAD~1",
        "git clean -n",
        "git checkout -b new",
        "git restore --staged f",
        "git branch -d topic",
      ]
    ) {
      const got = await answer(ws, command);
      expect(`${command}: ${got?.permissionDecision ?? "no decision"}`).toBe(`${command}: no decision`);
    }
  });

  test("a user policy that disables git-push-force by id leaves it to the host's allow", async () => {
    const ws = gitAllowedWorkspace({ disable: ["git-push-force"] });
    expect(await answer(ws, "git push --force origin main")).toBeUndefined();
    expect((await answer(ws, "git reset --hard"))?.permissionDecision).toBe("ask");
  });
});
