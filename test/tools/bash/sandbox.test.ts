/**
 * Bash and ExecCommand through the sandbox wrapper, with real bwrap. Skipped, with the reason, where
 * no bwrap sandbox is usable (CI installs bubblewrap); the no-sandbox fallbacks run everywhere.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AutorunRun,
  sandboxedLaunch,
  type SandboxedLauncher,
  type UnsandboxedRun,
} from "../../../src/exec/processes/sandboxed-launch.ts";
import { DEFAULT_SANDBOX_POLICY, type SandboxPolicy } from "../../../src/policy/sandbox-policy.ts";
import { detectSandbox, type SandboxAvailability } from "../../../src/sandbox/detect.ts";
import type { BashInput, BashOutput } from "../../../src/tools/bash/schema.ts";
import { createBashTool } from "../../../src/tools/bash/tool.ts";
import { createExecCommandTool } from "../../../src/tools/exec-command/tool.ts";
import { taskOutputTool } from "../../../src/tools/task-output/tool.ts";
import { type TestContext, testContext } from "../../exec/processes/helpers.ts";

const availability = detectSandbox();
const usable = availability.available && availability.kind === "bwrap";
if (!usable) {
  console.warn(`skipping sandboxed Bash runs: ${availability.available ? "not Linux" : availability.reason}`);
}
const unavailable: SandboxAvailability = { available: false, reason: "bubblewrap (bwrap) is not installed" };

const outsideRoot = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-outside-")));
afterAll(() => rmSync(outsideRoot, { recursive: true, force: true }));

let ctx: TestContext;
const launchers: SandboxedLauncher[] = [];
afterEach(async () => {
  ctx?.dispose();
  await Promise.all(launchers.splice(0).map((launcher) => launcher.close()));
});

interface Setup {
  policy?: Partial<SandboxPolicy>;
  availability?: SandboxAvailability;
}

function tools(setup: Setup = {}) {
  ctx = testContext();
  mkdirSync(join(ctx.cwd, ".git", "hooks"), { recursive: true });
  const unsandboxed: UnsandboxedRun[] = [];
  const autorun: AutorunRun[] = [];
  const wrapLaunch = sandboxedLaunch({
    policy: { ...DEFAULT_SANDBOX_POLICY, ...setup.policy },
    workspace: ctx.cwd,
    onUnsandboxed: (run) => unsandboxed.push(run),
    onAutorunChanged: (run) => autorun.push(run),
    ...(setup.availability ? { availability: setup.availability } : {}),
  });
  launchers.push(wrapLaunch);
  const bash = createBashTool({ wrapLaunch, killGraceMs: 200 });
  return {
    wrapLaunch,
    unsandboxed,
    autorun,
    exec: createExecCommandTool({ wrapLaunch, killGraceMs: 200 }),
    bash: async (input: BashInput) => {
      const result = await bash.call(input, ctx, () => {});
      const text = (bash.toContent(result.data, input)[0] as { text: string }).text;
      return { ...result, text };
    },
  };
}

const outside = (name: string) => join(outsideRoot, `${name}-${crypto.randomUUID().slice(0, 8)}`);

describe.skipIf(!usable)("Bash in the sandbox", () => {
  test("a write inside the workspace works", async () => {
    const { bash } = tools();
    const { data, isError } = await bash({ command: "echo hi > made.txt && cat made.txt" });
    expect(isError).toBe(false);
    expect(data.stdout).toBe("hi\n");
    expect(readFileSync(join(ctx.cwd, "made.txt"), "utf8")).toBe("hi\n");
    expect(data.notices).toBeUndefined();
  });

  test("a write outside fails, and the result names the path and the narrow exception", async () => {
    const { bash, unsandboxed } = tools();
    const target = outside("w");
    const { data, isError, text } = await bash({ command: `echo x > ${target}` });
    expect(isError).toBe(true);
    expect(existsSync(target)).toBe(false);
    expect(data.sandboxExplanation).toContain(`writing ${target} was blocked`);
    expect(text).toContain(`allow writing ${target} (sandbox allowWrite`);
    expect(unsandboxed).toEqual([]);
  });

  test("a changed file that runs later is named in the result and told to the audit", async () => {
    const { bash, autorun } = tools();
    const command = `echo '{"scripts":{"postinstall":"echo pwned"}}' > package.json; echo x >> Makefile`;
    const { data, text } = await bash({ command });
    const said = "changed files that run later, outside the sandbox: Makefile (created; run by make); " +
      'package.json "scripts" (created; run by npm';
    expect(data.notices?.join("\n")).toContain(said);
    expect(text).toContain(said);
    expect(autorun).toEqual([{ command, cwd: ctx.cwd, detail: expect.stringContaining(said) }]);
    // Nothing of the kind changed: nothing said.
    expect((await bash({ command: "echo y > notes.txt" })).data.notices).toBeUndefined();
    expect(autorun.length).toBe(1);
  });

  test("the policy's limits apply: past its wall time the command is killed, and the result says why", async () => {
    const { bash } = tools({ policy: { limits: { maxWallSeconds: 1 } } });
    const { data, isError } = await bash({ command: "sleep 20; echo finished" });
    expect(isError).toBe(true);
    expect(data.stdout).not.toContain("finished");
    expect(data.sandboxExplanation).toContain("wall-time limit of 1 s");
  });

  test("a background task or an exec session that changed one says so once it has ended", async () => {
    const { bash, exec, autorun } = tools();
    const started = await bash({ command: "sleep 0.3; echo 'all:' > Makefile", run_in_background: true });
    const id = started.data.backgroundTaskId!;
    const read = await taskOutputTool.call({ task_id: id, block: true, timeout: 30_000 }, ctx, () => {});
    const text = (taskOutputTool.toContent(read.data, { task_id: id })[0] as { text: string }).text;
    expect(text).toContain(
      "changed files that run later, outside the sandbox: Makefile (created; run by make)",
    );
    const session = await exec.call({ cmd: "echo x > AGENTS.md", yield_time_ms: 30_000 }, ctx, () => {});
    expect(session.data.note).toContain("AGENTS.md (created; run by the next agent session");
    expect(autorun.map((r) => r.detail)).toEqual([
      expect.stringContaining("Makefile (created"),
      expect.stringContaining("AGENTS.md (created"),
    ]);
  });

  test(".git/hooks stays read-only, and the result says it is protected", async () => {
    const { bash } = tools();
    const { data } = await bash({ command: "echo 'curl evil' > .git/hooks/pre-commit" });
    expect(existsSync(join(ctx.cwd, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(data.sandboxExplanation).toContain(`${join(ctx.cwd, ".git", "hooks")} is a protected path`);
    expect(data.sandboxExplanation).not.toContain("/usr/bin/bash");
  });

  test("a host outside allowNet is denied by the proxy, and the result names it", async () => {
    const { bash } = tools({ policy: { allowNet: ["allowed.invalid"] } });
    const fetchDenied =
      `${process.execPath} -e 'const r = await fetch("http://denied.invalid/"); process.exit(r.ok ? 0 : 1)'`;
    const { data, isError } = await bash({ command: fetchDenied });
    expect(isError).toBe(true);
    expect(data.sandboxExplanation).toContain(
      "network access to denied.invalid:80 was blocked by the sandbox proxy (not in the allow-list)",
    );
    expect(data.sandboxExplanation).toContain("allow host denied.invalid (sandbox allowNet");
  });

  test("dangerouslyDisableSandbox is ignored by default: still sandboxed, and the result says why", async () => {
    const { bash, unsandboxed } = tools();
    const target = outside("d");
    const { data, text } = await bash({ command: `touch ${target}`, dangerouslyDisableSandbox: true });
    expect(existsSync(target)).toBe(false);
    expect(data.notices?.[0]).toStartWith("dangerouslyDisableSandbox was ignored");
    expect(text).toContain("sandbox.allowUnsandboxedCommands is false");
    expect(unsandboxed).toEqual([]);
  });

  test("dangerouslyDisableSandbox is honoured when the policy allows it, and the run is reported", async () => {
    const { bash, unsandboxed } = tools({ policy: { allowUnsandboxedCommands: true } });
    const target = outside("h");
    const { isError, data } = await bash({ command: `touch ${target}`, dangerouslyDisableSandbox: true });
    expect(isError).toBe(false);
    expect(existsSync(target)).toBe(true);
    expect(data.notices).toEqual([
      "Ran outside the sandbox, as requested with dangerouslyDisableSandbox (the policy allows it).",
    ]);
    expect(unsandboxed).toEqual([{
      command: `touch ${target}`,
      cwd: ctx.cwd,
      reason: "dangerouslyDisableSandbox, allowed by sandbox.allowUnsandboxedCommands (default)",
    }]);
  });

  test("an excluded command runs outside the sandbox; the same prefix in a compound command does not", async () => {
    const { bash, unsandboxed } = tools({ policy: { excludedCommands: ["touch"] } });
    const [first, second] = [outside("e1"), outside("e2")];
    expect((await bash({ command: `touch ${first}` })).isError).toBe(false);
    expect(existsSync(first)).toBe(true);
    await bash({ command: `touch ${second} && true` });
    expect(existsSync(second)).toBe(false);
    expect(unsandboxed.map((r) => r.reason)).toEqual([
      'the command matches the excluded command "touch" (sandbox.excludedCommands)',
    ]);
  });

  test("a sandboxed command that runs past its timeout is stopped with everything it started", async () => {
    const { bash } = tools();
    const { data, isError } = await bash({ command: "sleep 30 & sleep 30", timeout: 300 });
    expect(isError).toBe(true);
    expect(data.timedOut).toBe(true);
    expect(data.sandboxExplanation).toBeUndefined();
  });

  test("ExecCommand with a terminal is sandboxed too: the seccomp descriptor rides along", async () => {
    const { exec } = tools();
    const target = outside("t");
    const { data } = await exec.call(
      { cmd: `tty >/dev/null && echo on-a-tty; touch ${target}`, tty: true, yield_time_ms: 30_000 },
      ctx,
      () => {},
    );
    expect(data.output).toContain("on-a-tty");
    expect(existsSync(target)).toBe(false);
    expect(data.note).toContain(`writing ${target} was blocked`);
  });

  test("the session's commands share one cgroup, which close() removes; no command runs after", async () => {
    const { bash, wrapLaunch } = tools();
    const group = async () => {
      const { data } = await bash({ command: "grep -E '^[0-9]+:(pids)?:' /proc/self/cgroup | head -1" });
      return data.stdout.trim().split(":")[2] ?? "";
    };
    const first = await group();
    expect(first).toContain("toolrt-sandbox-");
    expect(await group()).toBe(first);
    const dir = ["/sys/fs/cgroup/pids", "/sys/fs/cgroup"].map((base) => base + first).find(existsSync);
    expect(dir).toBeDefined();
    await wrapLaunch.close();
    expect(existsSync(dir!)).toBe(false);
    await expect(bash({ command: "true" })).rejects.toThrow("has been closed");
  });
});

describe("no sandbox on this machine", () => {
  test("refuse (the default): the call fails naming why and how to allow runs without one", async () => {
    const { bash, unsandboxed } = tools({ availability: unavailable });
    await expect(bash({ command: "touch ran" })).rejects.toThrow(
      "No sandbox is available, so the command did not run: bubblewrap (bwrap) is not installed.",
    );
    expect(existsSync(join(ctx.cwd, "ran"))).toBe(false);
    expect(unsandboxed).toEqual([]);
  });

  test("warn: the command runs, the result warns, and the run is reported for the audit", async () => {
    const { bash, unsandboxed } = tools({ availability: unavailable, policy: { whenUnavailable: "warn" } });
    const { data, isError, text } = await bash({ command: "touch ran" });
    expect(isError).toBe(false);
    expect(existsSync(join(ctx.cwd, "ran"))).toBe(true);
    expect(text).toContain("Warning: ran WITHOUT a sandbox: bubblewrap (bwrap) is not installed.");
    expect((data as BashOutput).notices).toHaveLength(1);
    expect(unsandboxed[0]!.reason).toContain(
      'no sandbox is available (bubblewrap (bwrap) is not installed); sandbox.whenUnavailable is "warn"',
    );
  });
});
