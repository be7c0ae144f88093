/** `toolrt hook` on the command line: the answer on stdout, and install/uninstall per host. */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectSandbox } from "../../src/sandbox/detect.ts";
import { runCli } from "../helpers/cli.ts";

function place() {
  const root = mkdtempSync(join(tmpdir(), "toolrt-cli-hook-"));
  return {
    cwd: root,
    // The home beside the project: a sandbox whose workspace holds the home is refused.
    env: { HOME: `${root}-home`, TOOLRT_HOME: join(root, "state"), CLAUDE_CONFIG_DIR: join(root, "cc") },
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
  const uninstall = runCli(["--cwd", cwd, "hook", "uninstall", "--host", "cursor"], { env });
  expect(uninstall.code).toBe(0);
  // The file held nothing but toolrt's entries: no `{"version": 1}` is left behind.
  expect(uninstall.stdout).toContain(`${file} held nothing else and was deleted`);
  expect(existsSync(file)).toBe(false);
});

test("two scopes at once is a usage error", () => {
  const { cwd, env } = place();
  expect(runCli(["--cwd", cwd, "hook", "install", "--user", "--project"], { env }).code).toBe(2);
});

test("hook install --sandbox writes an entry that runs toolrt hook --sandbox; hosts that cannot change a command refuse it", () => {
  const { cwd, env } = place();
  const install = runCli(["--cwd", cwd, "hook", "install", "--sandbox"], { env });
  expect(install.code, install.stderr).toBe(0);
  const settings = JSON.parse(readFileSync(join(cwd, ".claude", "settings.json"), "utf8"));
  const command: string = settings.hooks.PreToolUse[0].hooks[0].command;
  expect(command).toEndWith(" hook --sandbox");
  // Installing again without --sandbox replaces toolrt's entry rather than adding a second one.
  expect(runCli(["--cwd", cwd, "hook", "install"], { env }).code).toBe(0);
  const again = JSON.parse(readFileSync(join(cwd, ".claude", "settings.json"), "utf8"));
  expect(again.hooks.PreToolUse.length).toBe(1);
  expect(again.hooks.PreToolUse[0].hooks[0].command).toEndWith(" hook");

  const refused = runCli(["--cwd", cwd, "hook", "install", "--host", "cursor", "--sandbox"], { env });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain(
    "--sandbox needs a host whose hook can change the command; cursor's cannot",
  );
  expect(existsSync(join(cwd, ".cursor"))).toBe(false);
});

test("hook --sandbox on the command line rewrites a Bash call no rule allows", () => {
  const { cwd, env } = place();
  const stdin = JSON.stringify({
    hook_event_name: "PreToolUse",
    cwd,
    tool_name: "Bash",
    tool_input: { command: "npm test", description: "tests" },
  });
  const run = runCli(["hook", "--sandbox"], { cwd, env, stdin });
  expect(run.code).toBe(0);
  const answer = JSON.parse(run.stdout);
  const sandbox = detectSandbox();
  if (sandbox.available) {
    const out = answer.hookSpecificOutput;
    expect(out.permissionDecision).toBe("allow");
    expect(out.updatedInput.description).toBe("tests");
    expect(out.updatedInput.command).toContain(" sandbox --workspace=");
    expect(out.updatedInput.command).toEndWith(" -- bash --noprofile --norc -c 'npm test'");
  } else {
    // No sandbox on this machine: no decision, nothing rewritten (the host prompts as before), and why.
    expect(answer.hookSpecificOutput).toBeUndefined();
    expect(answer.systemMessage).toBe(
      `toolrt: not sandboxed: no sandbox is available here: ${sandbox.reason}`,
    );
  }
});

test("hook --sandbox in the home directory (or /) neither allows nor rewrites a write: the home is no workspace", () => {
  const { cwd: root, env } = place();
  const home = env.HOME;
  mkdirSync(home);
  const plant = "mkdir -p .local/bin && printf x > .local/bin/git && chmod +x .local/bin/git";
  for (const cwd of [home, "/"]) {
    const stdin = JSON.stringify({
      hook_event_name: "PreToolUse",
      cwd,
      tool_name: "Bash",
      tool_input: { command: plant },
    });
    const run = runCli(["hook", "--sandbox"], { cwd: root, env, stdin });
    expect(run.code).toBe(0);
    // No decision is the host's own prompt.
    const out = run.stdout.trim() ? JSON.parse(run.stdout).hookSpecificOutput : undefined;
    expect(out?.permissionDecision, cwd).toBeUndefined();
    expect(run.stdout).not.toContain("sandbox --workspace");
  }
  const check = runCli(["--cwd", home, "check", "--sandboxed", "Bash", plant], { cwd: root, env });
  expect(check.stdout).toStartWith("ask:");
  expect(check.stdout).toContain(`the workspace ${home} is the home directory`);
});

test("hook --sandbox: a program Claude Code's ask rule names stays blocked inside the rewritten run", () => {
  const { cwd, env } = place();
  mkdirSync(join(cwd, "cc"));
  writeFileSync(join(cwd, "cc", "settings.json"), JSON.stringify({ permissions: { ask: ["Bash(curl:*)"] } }));
  // A Makefile whose recipe runs curl: the line `make` does not name it.
  writeFileSync(join(cwd, "Makefile"), "all:\n\tcurl x\n");
  const stdin = JSON.stringify({
    hook_event_name: "PreToolUse",
    cwd,
    tool_name: "Bash",
    tool_input: { command: "make" },
  });
  const answer = JSON.parse(runCli(["hook", "--sandbox"], { cwd, env, stdin }).stdout);
  if (!detectSandbox().available) return void console.warn("skipping the rewritten run: no sandbox here");
  const command: string = answer.hookSpecificOutput.updatedInput.command;
  expect(command).toContain("'--mask-program=curl=the ask rule Bash(curl:*) (claude: ");
  const run = Bun.spawnSync(["bash", "-c", command], { cwd, env: { ...process.env, ...env } });
  expect(run.stderr.toString()).toContain(
    "toolrt: curl is blocked in this sandbox by the ask rule Bash(curl:*)",
  );
  expect(run.stderr.toString()).not.toMatch(/curl: \(\d+\)/);
});
