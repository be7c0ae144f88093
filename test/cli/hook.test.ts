/** `toolrt hook` on the command line: the answer on stdout, and install/uninstall per host. */
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";

function place() {
  const root = mkdtempSync(join(tmpdir(), "toolrt-cli-hook-"));
  return {
    cwd: root,
    env: { HOME: root, TOOLRT_HOME: join(root, "state"), CLAUDE_CONFIG_DIR: join(root, "cc") },
  };
}

test("hook answers a PreToolUse event and exits 0", () => {
  const { cwd, env } = place();
  const stdin = JSON.stringify({
    hook_event_name: "PreToolUse",
    cwd,
    tool_name: "Bash",
    tool_input: { command: "rm -rf /" },
  });
  const run = runCli(["hook"], { cwd, env, stdin });
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
});

test("hook install --host writes that host's file, and uninstall removes the entries", () => {
  const { cwd, env } = place();
  const install = runCli([
    "--cwd",
    cwd,
    "hook",
    "install",
    "--host",
    "cursor",
    "--command",
    "toolrt hook --host cursor",
  ], { env });
  expect(install.code, install.stderr).toBe(0);
  const file = join(cwd, ".cursor", "hooks.json");
  expect(JSON.parse(readFileSync(file, "utf8")).hooks.beforeShellExecution).toEqual([{
    command: "toolrt hook --host cursor",
  }]);
  expect(existsSync(join(cwd, ".claude", "settings.json"))).toBe(false);
  expect(runCli(["--cwd", cwd, "hook", "uninstall", "--host", "cursor"], { env }).code).toBe(0);
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ version: 1 });
});

test("two scopes at once is a usage error", () => {
  const { cwd, env } = place();
  expect(runCli(["--cwd", cwd, "hook", "install", "--user", "--project"], { env }).code).toBe(2);
});
