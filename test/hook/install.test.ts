/** install / uninstall: merge into the host's file, keep a backup, change nothing twice. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { hookCommand, isHookCommand } from "../../src/hook/command.ts";
import { installHooks, runsCommand, uninstallHooks } from "../../src/hook/install.ts";
import { installTarget } from "../../src/hook/install-targets.ts";
import { HOSTS } from "../../src/hook/types.ts";

const COMMAND = "/opt/toolrt/bin/toolrt hook";
const ours = (entry: unknown) => runsCommand(entry, (c) => isHookCommand(c, COMMAND));

function place() {
  const root = mkdtempSync(join(tmpdir(), "toolrt-install-"));
  return { cwd: join(root, "work"), env: { HOME: join(root, "home") } };
}

const read = (file: string) => JSON.parse(readFileSync(file, "utf8"));

test("Claude Code: merges beside existing settings and hooks, with a backup, idempotently", () => {
  const ctx = place();
  const target = installTarget("claude-code", "project", COMMAND, ctx);
  const existing = {
    permissions: { allow: ["Bash(npm test)"] },
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "node guard.mjs" }] }] },
  };
  mkdirSync(dirname(target.file), { recursive: true });
  writeFileSync(target.file, JSON.stringify(existing));

  const first = installHooks(target, ours);
  expect(first).toEqual({
    file: join(ctx.cwd, ".claude/settings.json"),
    changed: true,
    backup: `${target.file}.toolrt-backup`,
  });
  expect(read(first.backup!)).toEqual(existing);
  const settings = read(target.file);
  expect(settings.permissions).toEqual(existing.permissions);
  expect(settings.hooks.PreToolUse).toEqual([
    existing.hooks.PreToolUse[0],
    {
      matcher: "^(Bash|Read|Edit|MultiEdit|Write|Glob|Grep|WebFetch|NotebookEdit|mcp__.*)$",
      hooks: [{ type: "command", command: COMMAND }],
    },
  ]);
  expect(Object.keys(settings.hooks)).toEqual(["PreToolUse", "PostToolUse", "PostToolUseFailure"]);

  expect(installHooks(target, ours).changed).toBe(false);
  expect(uninstallHooks(target, ours).changed).toBe(true);
  expect(read(target.file)).toEqual(existing);
  expect(uninstallHooks(target, ours).changed).toBe(false);
});

test.each(HOSTS.map((host) => [host]))(
  "%s: uninstall deletes the file install created, and its backup",
  (host) => {
    const ctx = place();
    const target = installTarget(host, host === "copilot-cli" ? "project" : "user", COMMAND, ctx);
    installHooks(target, ours);
    installHooks({ ...target, entries: { ...target.entries } }, ours);
    expect(uninstallHooks(target, ours)).toEqual({ file: target.file, changed: true, removed: true });
    expect(existsSync(target.file)).toBe(false);
    expect(existsSync(`${target.file}.toolrt-backup`)).toBe(false);
    expect(uninstallHooks(target, ours).changed).toBe(false);
  },
);

test("uninstall keeps a file with anything of the user's in it, and the backup of it", () => {
  const ctx = place();
  const target = installTarget("claude-code", "project", COMMAND, ctx);
  const theirs = {
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard" }] }] },
  };
  mkdirSync(dirname(target.file), { recursive: true });
  writeFileSync(target.file, JSON.stringify(theirs));
  installHooks(target, ours);
  const result = uninstallHooks(target, ours);
  expect(result.removed).toBeUndefined();
  expect(read(target.file)).toEqual(theirs);
  expect(existsSync(`${target.file}.toolrt-backup`)).toBe(true);
});

test("an empty settings file is taken as a new one: install fills it, uninstall of it changes nothing", () => {
  const ctx = place();
  const target = installTarget("claude-code", "project", COMMAND, ctx);
  mkdirSync(dirname(target.file), { recursive: true });
  writeFileSync(target.file, "");
  expect(uninstallHooks(target, ours)).toEqual({ file: target.file, changed: false });
  expect(readFileSync(target.file, "utf8")).toBe("");
  expect(installHooks(target, ours)).toEqual({ file: target.file, changed: true });
  expect(Object.keys(read(target.file).hooks)).toEqual(["PreToolUse", "PostToolUse", "PostToolUseFailure"]);
});

test("a file that is not JSON is never overwritten", () => {
  const ctx = place();
  const target = installTarget("claude-code", "user", COMMAND, ctx);
  mkdirSync(dirname(target.file), { recursive: true });
  writeFileSync(target.file, "{ broken");
  expect(() => installHooks(target, ours)).toThrow("not valid JSON");
  expect(readFileSync(target.file, "utf8")).toBe("{ broken");
});

describe("each host's file and entry shape", () => {
  test.each(
    [
      ["claude-code", "user", "home/.claude/settings.json", "PreToolUse"],
      ["codex", "user", "home/.codex/hooks.json", "PreToolUse"],
      ["codex", "project", "work/.codex/hooks.json", "PostToolUse"],
      ["gemini-cli", "project", "work/.gemini/settings.json", "BeforeTool"],
      ["cursor", "user", "home/.cursor/hooks.json", "beforeShellExecution"],
      ["copilot-cli", "project", "work/.github/hooks/toolrt.json", "preToolUse"],
    ] as const,
  )("%s --%s → %s", (host, scope, file, event) => {
    const ctx = place();
    const target = installTarget(host, scope, COMMAND, ctx);
    expect(target.file).toBe(join(dirname(ctx.cwd), file));
    const result = installHooks(target, ours);
    expect(result.backup).toBeUndefined();
    const written = read(target.file);
    expect(written.hooks[event]).toHaveLength(1);
    expect(runsCommand(written.hooks[event], (c) => c === COMMAND)).toBe(true);
    if (host === "cursor" || host === "copilot-cli") expect(written.version).toBe(1);
  });
  test("Copilot CLI has no user scope and only Claude Code has --local", () => {
    const ctx = place();
    expect(() => installTarget("copilot-cli", "user", COMMAND, ctx)).toThrow("--project");
    expect(() => installTarget("codex", "local", COMMAND, ctx)).toThrow("--local");
    expect(existsSync(ctx.cwd)).toBe(false);
  });
});

test("the hook command names the host unless it is Claude Code", () => {
  for (const host of HOSTS) {
    const command = hookCommand(host, "/usr/local/bin/toolrt");
    expect(command).toBe(
      host === "claude-code" ? "/usr/local/bin/toolrt hook" : `/usr/local/bin/toolrt hook --host ${host}`,
    );
    expect(isHookCommand(command, "something else")).toBe(true);
  }
  expect(isHookCommand("node guard.mjs", COMMAND)).toBe(false);
});
