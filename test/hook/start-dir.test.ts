/**
 * Hook mode judges a shell call in the directory the host really runs it in: Codex's `workdir`,
 * gemini-cli's `dir_path` (earlier `directory`), the shell cwd Claude Code and Cursor send, while
 * the workspace stays the root the host names (Cursor's `workspace_roots`, Claude Code's
 * `CLAUDE_PROJECT_DIR`). Each case is a payload in the host's own shape; each hazard was verified
 * in real bash (a `cat token` run in secrets/ printed it; `git status` in evil/ ran its
 * core.fsmonitor, as the first test shows again).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HostName } from "../../src/hook/types.ts";
import { gitTestEnv } from "../helpers/git-env.ts";
import { programFor } from "../helpers/requirements.ts";
import { type HookWorkspace, hookWorkspace } from "./workspace.ts";

const hasGit = programFor("git", "hook calls in a directory holding a repository with core.fsmonitor");

/** A workspace whose settings deny reads under secrets/, with an ordinary docs/ and a file at home. */
function workspace(): HookWorkspace {
  const ws = hookWorkspace();
  writeFileSync(
    join(ws.cwd, ".claude", "settings.json"),
    JSON.stringify({ permissions: { deny: ["Read(./secrets/**)"] } }),
  );
  mkdirSync(join(ws.cwd, "secrets"));
  writeFileSync(join(ws.cwd, "secrets", "token"), "dummy\n");
  mkdirSync(join(ws.cwd, "docs"));
  writeFileSync(join(ws.cwd, "docs", "notes.txt"), "notes\n");
  writeFileSync(join(ws.home, "plain.txt"), "outside\n");
  return ws;
}

/** A repository in evil/ whose config runs a program on `git status`; the marker it would touch. */
function evilRepository(ws: HookWorkspace): string {
  const marker = join(ws.home, "fsmonitor-ran");
  const run = (args: string[], cwd: string) =>
    Bun.spawnSync(["git", ...args], {
      cwd,
      env: gitTestEnv({ HOME: ws.home }),
      stdout: "ignore",
      stderr: "ignore",
    });
  mkdirSync(join(ws.cwd, "evil"));
  run(["init", "-q"], join(ws.cwd, "evil"));
  run(["config", "core.fsmonitor", `touch ${marker}; false`], join(ws.cwd, "evil"));
  return marker;
}

/** The decision in any host's answer; "none" when it left the call to the host. */
function decisionOf(out: string): string {
  if (out === "") return "none";
  const answer = JSON.parse(out);
  return answer.hookSpecificOutput?.permissionDecision ?? answer.decision ?? answer.permission ?? "none";
}

function reasonOf(out: string): string {
  const answer = JSON.parse(out);
  return answer.hookSpecificOutput?.permissionDecisionReason ?? answer.reason ?? answer.user_message ?? "";
}

const codex = (command: string[], workdir: unknown) =>
  JSON.stringify({
    session_id: "s",
    cwd: "$CWD",
    hook_event_name: "PreToolUse",
    tool_name: "shell",
    tool_use_id: "call_1",
    tool_input: { command, workdir },
  });

const gemini = (command: string, dir: Record<string, unknown>) =>
  JSON.stringify({
    session_id: "s",
    cwd: "$CWD",
    hook_event_name: "BeforeTool",
    tool_name: "run_shell_command",
    tool_input: { command, ...dir },
  });

const cursor = (command: string, cwd: string) =>
  JSON.stringify({
    conversation_id: "c",
    hook_event_name: "beforeShellExecution",
    workspace_roots: ["$CWD"],
    command,
    cwd,
  });

const claude = (command: string, cwd: string) =>
  JSON.stringify({
    session_id: "s",
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
  });

/** Each host's payload for `command` run in `dir` (relative to the workspace, or absolute). */
const PAYLOADS: Record<Exclude<HostName, "copilot-cli">, (command: string, dir: string) => string> = {
  codex: (command, dir) => codex(["bash", "-lc", command], dir),
  "gemini-cli": (command, dir) => gemini(command, { dir_path: dir }),
  cursor: (command, dir) => cursor(command, dir.startsWith("/") ? dir : `$CWD/${dir}`),
  "claude-code": (command, dir) => claude(command, dir.startsWith("/") ? dir : `$CWD/${dir}`),
};

async function ask(ws: HookWorkspace, host: HostName, payload: string): Promise<string> {
  // Claude Code names the project root in its hooks' environment.
  if (host === "claude-code") ws.env.CLAUDE_PROJECT_DIR = ws.cwd;
  return ws.run(host, payload);
}

describe.each(Object.keys(PAYLOADS) as (keyof typeof PAYLOADS)[])(
  "%s: a shell call in another directory",
  (host) => {
    const payload = PAYLOADS[host];

    test("a read-only command in an ordinary subdirectory is still allowed", async () => {
      const ws = workspace();
      expect(decisionOf(await ask(ws, host, payload("cat notes.txt", "docs")))).toBe("allow");
    });

    test("its relative paths are judged from there: a denied directory stays denied", async () => {
      const ws = workspace();
      const out = await ask(ws, host, payload("cat token", "secrets"));
      expect(decisionOf(out)).toBe("deny");
      expect(reasonOf(out)).toContain("Read(./secrets/**)");
    });

    test("outside the workspace it reads outside: not allowed", async () => {
      const ws = workspace();
      expect(decisionOf(await ask(ws, host, payload("cat plain.txt", ws.home)))).not.toBe("allow");
    });

    test("a catastrophe relative to that directory is denied", async () => {
      const ws = workspace();
      const out = await ask(ws, host, payload("rm -rf ./*", "/"));
      expect(decisionOf(out)).toBe("deny");
      expect(reasonOf(out)).toContain("catastrophic command");
    });

    test("a toolchain file there is seen: cargo is not allowed", async () => {
      const ws = workspace();
      mkdirSync(join(ws.cwd, "sub2"));
      writeFileSync(join(ws.cwd, "sub2", "rust-toolchain.toml"), '[toolchain]\npath = "/nonexistent"\n');
      expect(decisionOf(await ask(ws, host, payload("cargo -V", "docs")))).toBe("allow");
      expect(decisionOf(await ask(ws, host, payload("cargo -V", "sub2")))).not.toBe("allow");
    });

    test.skipIf(!hasGit)(
      "git status in an embedded repository that runs a program is not allowed",
      async () => {
        const ws = workspace();
        const marker = evilRepository(ws);
        expect(decisionOf(await ask(ws, host, payload("git status", "evil")))).not.toBe("allow");
        // The hazard is real: git status there runs the configured program.
        Bun.spawnSync(["git", "status"], { cwd: join(ws.cwd, "evil"), env: gitTestEnv({ HOME: ws.home }) });
        expect(existsSync(marker)).toBe(true);
      },
    );
  },
);

describe("a directory toolrt cannot read makes the call ask, saying why", () => {
  test.each([
    ["codex", codex(["cat", "notes.txt"], 42), "workdir is a number"],
    ["codex", codex(["cat", "notes.txt"], "no-such-dir"), "no-such-dir, which toolrt cannot read"],
    ["codex", codex(["cat", "notes.txt"], "docs/notes.txt"), "notes.txt, which is not a directory"],
    ["gemini-cli", gemini("cat notes.txt", { directory: ["docs"] }), "directory is an array"],
    ["gemini-cli", gemini("cat notes.txt", { dir_path: "" }), "dir_path is empty"],
    ["cursor", cursor("cat notes.txt", "$CWD/gone"), "gone, which toolrt cannot read"],
  ] as [HostName, string, string][])("%s: %s", async (host, payload, why) => {
    const ws = workspace();
    const out = await ask(ws, host, payload);
    expect(decisionOf(out)).toBe("ask");
    expect(reasonOf(out)).toContain(why);
  });

  test("a denial still stands", async () => {
    const ws = workspace();
    expect(decisionOf(await ask(ws, "codex", codex(["rm", "-rf", "/"], 42)))).toBe("deny");
  });
});

describe("the workspace root", () => {
  test("gemini-cli's earlier `directory` is read as dir_path is", async () => {
    const ws = workspace();
    expect(decisionOf(await ask(ws, "gemini-cli", gemini("cat token", { directory: "secrets" })))).toBe(
      "deny",
    );
  });

  test("Codex's workdir may be absolute, and null means the session's cwd", async () => {
    const ws = workspace();
    expect(decisionOf(await ask(ws, "codex", codex(["cat", "token"], join(ws.cwd, "secrets"))))).toBe("deny");
    expect(decisionOf(await ask(ws, "codex", codex(["cat", "docs/notes.txt"], null)))).toBe("allow");
  });

  test("Cursor: the workspace root is the one holding the shell's cwd, not the cwd", async () => {
    const ws = workspace();
    // From docs/, ../secrets/token is the denied directory of the root.
    expect(decisionOf(await ask(ws, "cursor", cursor("cat ../secrets/token", "$CWD/docs")))).toBe("deny");
  });

  test("Claude Code: after `cd docs` the project root stays the workspace", async () => {
    const ws = workspace();
    const out = await ask(ws, "claude-code", claude("cat ../secrets/token", `${ws.cwd}/docs`));
    expect(decisionOf(out)).toBe("deny");
  });
});

// Claude Code keeps the shell's cwd: after an allowed `cd evil` the next event's cwd is evil/.
// Without CLAUDE_PROJECT_DIR, the workspace is the cwd of the session's first event, not the
// current one, so evil/'s repository is not the workspace's own (real git ran its fsmonitor above).
describe("without a root from the host, the session's first cwd stays the workspace", () => {
  const event = (session: string, command: string, cwd: string) =>
    JSON.stringify({
      session_id: session,
      cwd,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command },
    });

  test.skipIf(!hasGit)("cd evil, then git status from evil/, asks", async () => {
    const ws = workspace();
    evilRepository(ws);
    expect(decisionOf(await ws.run("claude-code", event("s1", "cd evil", "$CWD")))).toBe("allow");
    const out = await ws.run("claude-code", event("s1", "git status", "$CWD/evil"));
    expect(decisionOf(out)).toBe("ask");
    expect(reasonOf(out)).toContain("not the workspace's own");
  });

  test.skipIf(!hasGit)(
    "a cwd moved outside the workspace: its repository and its files are outside",
    async () => {
      const ws = workspace();
      const marker = join(ws.home, "outside-fsmonitor-ran");
      Bun.spawnSync(["git", "init", "-q", ws.home], { env: gitTestEnv({ HOME: ws.home }) });
      Bun.spawnSync(["git", "config", "core.fsmonitor", `touch ${marker}; false`], {
        cwd: ws.home,
        env: gitTestEnv({ HOME: ws.home }),
      });
      expect(decisionOf(await ws.run("claude-code", event("s5", "ls", "$CWD")))).toBe("allow");
      const git = await ws.run("claude-code", event("s5", "git status", ws.home));
      expect(decisionOf(git)).toBe("ask");
      expect(reasonOf(git)).toContain("a repository outside the workspace");
      expect(decisionOf(await ws.run("claude-code", event("s5", "ls", ws.home)))).not.toBe("allow");
    },
  );

  test("relative paths from the moved cwd still meet the workspace's rules", async () => {
    const ws = workspace();
    expect(decisionOf(await ws.run("claude-code", event("s2", "ls", "$CWD")))).toBe("allow");
    expect(decisionOf(await ws.run("claude-code", event("s2", "cat token", "$CWD/secrets")))).toBe("deny");
    // Moved outside the workspace, the same session reads outside it.
    expect(decisionOf(await ws.run("claude-code", event("s2", "cat plain.txt", ws.home)))).not.toBe("allow");
  });

  test("each session has its own first cwd; CLAUDE_PROJECT_DIR still wins", async () => {
    const ws = workspace();
    await ws.run("claude-code", event("s3", "ls", "$CWD"));
    expect(decisionOf(await ws.run("claude-code", event("s4", "cat notes.txt", "$CWD/docs")))).toBe("allow");
    ws.env.CLAUDE_PROJECT_DIR = join(ws.cwd, "docs");
    expect(decisionOf(await ws.run("claude-code", event("s3", "cat ../secrets/token", "$CWD/docs")))).not
      .toBe(
        "allow",
      );
  });
});
