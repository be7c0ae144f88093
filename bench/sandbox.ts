/**
 * Start-up overhead of the sandbox: `dist/toolrt sandbox -- true` against a bare bwrap line with the
 * same isolation flags and against `true` with no sandbox. Median of 30 each, interleaved so
 * background load hits all three alike. Needs dist/toolrt (`npm run build`) and bwrap.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ISOLATION_ARGS } from "../src/sandbox/bwrap.ts";
import { report, round, summarize } from "./support/lib.ts";

const binary = join(import.meta.dir, "..", "dist", "toolrt");
const bwrap = Bun.which("bwrap");
if (!existsSync(binary) || !bwrap) {
  console.error("bench/sandbox.ts: needs dist/toolrt (npm run build) and bwrap on PATH");
  process.exit(2);
}
const workspace = mkdtempSync(join(tmpdir(), "toolrt-bench-sbx-"));
const trueBin = Bun.which("true")!;
const commands: Record<string, string[]> = {
  none: [trueBin],
  bwrap: [
    bwrap,
    ...ISOLATION_ARGS,
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--bind",
    workspace,
    workspace,
    "--",
    trueBin,
  ],
  toolrt: [binary, "sandbox", "--workspace", workspace, "--", trueBin],
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
rmSync(workspace, { recursive: true, force: true });
for (const [label, values] of Object.entries(samples)) {
  const s = summarize(values);
  report(`sandbox.startup.${label}`, {
    command: label === "toolrt"
      ? "dist/toolrt sandbox -- true"
      : label === "bwrap"
      ? "bwrap (same namespaces) true"
      : "true",
    median_ms: round(s.median),
    p99_ms: round(s.p99),
    min_ms: round(s.min),
    n: s.n,
  });
}
