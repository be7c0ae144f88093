/**
 * Spawn overhead of the Bash tool: `true` through `bashTool.call()` against `Bun.spawn` of the same
 * `bash --noprofile --norc -c true` with piped output read to the end. Medians of 200 runs each,
 * interleaved so both see the same machine load. Then the sandbox's cost: `true` through a Bash tool
 * wired to `sandboxedLaunch` (default policy: workspace writable, no network) against the plain tool,
 * median of 30 each, interleaved; skipped with the reason where no sandbox is usable.
 */
import "./support/isolated-home.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bashLaunch } from "../src/exec/processes/launch.ts";
import { sandboxedLaunch } from "../src/exec/processes/sandboxed-launch.ts";
import { DEFAULT_SANDBOX_POLICY } from "../src/policy/sandbox-policy.ts";
import { detectSandbox } from "../src/sandbox/detect.ts";
import { createToolContext } from "../src/tool/context.ts";
import { createBashTool } from "../src/tools/bash/tool.ts";
import { report, round, summarize } from "./support/lib.ts";

const bashTool = createBashTool();

const RUNS = 200;
const root = mkdtempSync(join(tmpdir(), "toolrt-bench-bash-"));
const ctx = createToolContext({
  cwd: root,
  stateDir: join(root, ".state"),
  mode: "default",
  invokedBy: "cli",
});
const launch = bashLaunch("true", root);

async function direct(): Promise<void> {
  const child = Bun.spawn(launch.argv, { cwd: root, env: launch.env, stdout: "pipe", stderr: "pipe" });
  await Promise.all([child.stdout.text(), child.stderr.text(), child.exited]);
}

async function callTrue(tool: typeof bashTool): Promise<void> {
  const { data } = await tool.call({ command: "true" }, ctx, () => {});
  if (data.exitCode !== 0) throw new Error(`true exited ${data.exitCode}: ${data.stderr}`);
}
const throughTool = () => callTrue(bashTool);

const samples = { direct: [] as number[], tool: [] as number[] };
for (let i = 0; i < RUNS + 10; i++) {
  for (const [name, fn] of [["direct", direct], ["tool", throughTool]] as const) {
    const start = Bun.nanoseconds();
    await fn();
    if (i >= 10) samples[name].push((Bun.nanoseconds() - start) / 1e6);
  }
}

const SANDBOX_RUNS = 30;
const availability = detectSandbox();
const sandbox = sandboxedLaunch({ policy: DEFAULT_SANDBOX_POLICY, workspace: root });
const sandboxedTool = createBashTool({ wrapLaunch: sandbox });
const sandboxSamples = { plain: [] as number[], sandboxed: [] as number[] };
if (availability.available) {
  for (let i = 0; i < SANDBOX_RUNS + 3; i++) {
    for (const [name, tool] of [["plain", bashTool], ["sandboxed", sandboxedTool]] as const) {
      const start = Bun.nanoseconds();
      await callTrue(tool);
      if (i >= 3) sandboxSamples[name].push((Bun.nanoseconds() - start) / 1e6);
    }
  }
}
await sandbox.close();
rmSync(root, { recursive: true, force: true });

const direct_ = summarize(samples.direct);
const tool = summarize(samples.tool);
const figures = (s: typeof tool) => ({
  median_ms: round(s.median),
  p99_ms: round(s.p99),
  min_ms: round(s.min),
  n: s.n,
});
report("bash-tool.bun_spawn_true", {
  command: "Bun.spawn(bash --noprofile --norc -c true)",
  ...figures(direct_),
});
report("bash-tool.call_true", { command: "bashTool.call({command: 'true'})", ...figures(tool) });
report("bash-tool.overhead", {
  median_ms: round(tool.median - direct_.median),
  ratio: round(tool.median / direct_.median),
});

if (availability.available) {
  const plain = summarize(sandboxSamples.plain);
  const sandboxed = summarize(sandboxSamples.sandboxed);
  report("bash-tool.unsandboxed_call_true", {
    command: "bashTool.call({command: 'true'})",
    ...figures(plain),
  });
  report("bash-tool.sandboxed_call_true", {
    command: "createBashTool({ wrapLaunch: sandboxedLaunch(default policy) }).call({command: 'true'})",
    ...figures(sandboxed),
  });
  report("bash-tool.sandbox_overhead", {
    median_ms: round(sandboxed.median - plain.median),
    ratio: round(sandboxed.median / plain.median),
  });
} else {
  report("bash-tool.sandboxed_call_true", { skipped: availability.reason });
}
