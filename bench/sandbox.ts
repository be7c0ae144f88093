/**
 * Start-up overhead of the sandbox: `dist/toolrt sandbox -- true` against a bare bwrap line with the
 * same isolation flags and against `true` with no sandbox, median of 30 each, interleaved so
 * background load hits all three alike. Then the in-process share of a run: `wrapCommand` (temp dir,
 * index refresh, mount plan, pinned mount sources, cgroup) plus its cleanup (index refresh, quarantine), without
 * spawning, median of 30. The workspace is a git repository, so every mandatory protected path is
 * planned. Each figure carries the 1-minute load average (2 shared cores: compare figures taken
 * together). Needs dist/toolrt (`npm run build`) and bwrap.
 */
import "./support/isolated-home.ts";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { baseBwrapArgs } from "../src/sandbox/bwrap.ts";
import { detectSandbox } from "../src/sandbox/detect.ts";
import { buildSandboxProfile } from "../src/sandbox/profile.ts";
import { wrapCommand } from "../src/sandbox/wrap.ts";
import { report, round, summarize, timeRuns } from "./support/lib.ts";

const binary = join(import.meta.dir, "..", "dist", "toolrt");
const bwrap = Bun.which("bwrap");
if (!(await Bun.file(binary).exists()) || !bwrap || !detectSandbox().available) {
  console.error("bench/sandbox.ts: needs dist/toolrt (npm run build) and a usable bwrap");
  process.exit(2);
}
const workspace = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-bench-sbx-")));
mkdirSync(join(workspace, ".git", "hooks"), { recursive: true });
const trueBin = Bun.which("true")!;
const load = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
const figures = (values: number[]) => {
  const s = summarize(values);
  return { median_ms: round(s.median), p99_ms: round(s.p99), min_ms: round(s.min), n: s.n, load_1m: load() };
};

const commands: Record<string, string[]> = {
  none: [trueBin],
  bwrap: [...baseBwrapArgs(bwrap), "--bind", workspace, workspace, "--", trueBin],
  toolrt: [binary, "sandbox", "--workspace", workspace, "--", trueBin],
};
const labels: Record<string, string> = {
  none: "true",
  bwrap: "bwrap (same namespaces) true",
  toolrt: "dist/toolrt sandbox -- true",
};
const RUNS = 30;
const samples: Record<string, number[]> = { none: [], bwrap: [], toolrt: [] };
for (let round_ = -2; round_ < RUNS; round_++) {
  for (const [label, argv] of Object.entries(commands)) {
    const start = Bun.nanoseconds();
    const run = Bun.spawnSync(argv, { cwd: workspace, stdout: "ignore", stderr: "ignore" });
    const ms = (Bun.nanoseconds() - start) / 1e6;
    if (run.exitCode !== 0) throw new Error(`${label} exited ${run.exitCode}`);
    if (round_ >= 0) samples[label]!.push(ms);
  }
}
for (const [label, values] of Object.entries(samples)) {
  report(`sandbox.startup.${label}`, { command: labels[label]!, ...figures(values) });
}

const profile = buildSandboxProfile({}, workspace);
const prepare = await timeRuns(RUNS, async () => {
  const wrapped = await wrapCommand(profile, [trueBin], { cwd: workspace });
  await wrapped.cleanup();
}, 3);
report("sandbox.prepare", { command: "wrapCommand + cleanup, no spawn", ...figures(prepare) });
rmSync(workspace, { recursive: true, force: true });
