/**
 * What private device nodes cost a command that runs as the host's uid 0 (toolrt as root, a
 * root-owned workspace): `dist/toolrt sandbox -- true`, CPU of the whole process tree (rusage) and
 * wall time, and `devNodesForRun` alone in this process (six mknod, chmod, pin, one test open), its
 * first call (libc loaded through bun:ffi) apart.
 * Without root there is nothing to measure (no node is made): it says so and exits.
 *
 * bun bench/sandbox-dev-nodes.ts [RUNS]   (default 15; needs dist/toolrt and bwrap)
 * With TOOLRT_BENCH_BASELINE=DIR (another checkout, built), its `toolrt sandbox -- true` is measured
 * in the same run, interleaved (rows `*_baseline`). Writes bench/out/sandbox-dev-nodes.json.
 */
import "./support/isolated-home.ts";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { devNodesForRun } from "../src/sandbox/dev-nodes.ts";
import { makeRunDir } from "../src/sandbox/run-dir.ts";
import { detectSandbox } from "../src/sandbox/detect.ts";
import { report, round, summarize } from "./support/lib.ts";

const runs = Number(process.argv[2] ?? 15);
if (process.getuid?.() !== 0) {
  console.log("sandbox-dev-nodes: not root here; private device nodes are made only for a root toolrt");
  process.exit(0);
}
if (!detectSandbox().available) {
  console.log("sandbox-dev-nodes: no usable sandbox here");
  process.exit(0);
}

const root = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-bench-devnodes-")));
const ws = join(root, "ws");
mkdirSync(ws);
const env = { ...process.env } as Record<string, string>;
const subjects: Array<{ name: string; bin: string }> = [
  { name: "sandbox_true", bin: resolve(import.meta.dir, "../dist/toolrt") },
];
if (process.env.TOOLRT_BENCH_BASELINE) {
  subjects.push({
    name: "sandbox_true_baseline",
    bin: resolve(process.env.TOOLRT_BENCH_BASELINE, "dist/toolrt"),
  });
}

function timed(bin: string): { wall: number; cpu: number } {
  const start = Bun.nanoseconds();
  const run = Bun.spawnSync([bin, "sandbox", "--workspace", ws, "--", "true"], {
    cwd: ws,
    env,
    stderr: "pipe",
  });
  const wall = (Bun.nanoseconds() - start) / 1e6;
  if (run.exitCode !== 0) throw new Error(`${bin} exited ${run.exitCode}: ${run.stderr}`);
  return { wall, cpu: Number(run.resourceUsage.cpuTime.total) / 1000 };
}

const rows: Array<Record<string, number | string>> = [];
const samples = new Map(subjects.map((s) => [s.name, { wall: [] as number[], cpu: [] as number[] }]));
for (const s of subjects) timed(s.bin); // warm-up: page cache, the stale-run sweep
for (let i = 0; i < runs; i++) {
  for (const s of subjects) {
    const t = timed(s.bin);
    samples.get(s.name)!.wall.push(t.wall);
    samples.get(s.name)!.cpu.push(t.cpu);
  }
}
for (const [name, { wall, cpu }] of samples) {
  rows.push({
    case: name,
    n: runs,
    cpu_median_ms: round(summarize(cpu).median, 1),
    wall_median_ms: round(summarize(wall).median, 1),
  });
}

const inProcess = { wall: [] as number[], cpu: [] as number[] };
for (let i = 0; i < runs; i++) {
  const runDir = makeRunDir(root);
  const cleanups: Array<() => void | Promise<void>> = [];
  const cpu0 = process.cpuUsage();
  const start = Bun.nanoseconds();
  devNodesForRun(runDir, join(root, "state"), cleanups);
  inProcess.wall.push((Bun.nanoseconds() - start) / 1e6);
  const cpu = process.cpuUsage(cpu0);
  inProcess.cpu.push((cpu.user + cpu.system) / 1000);
  for (const fn of cleanups) await fn();
  rmSync(runDir, { recursive: true, force: true });
}
// The first call loads libc's mknod through bun:ffi: what every `toolrt sandbox` process pays.
rows.push({
  case: "dev_nodes_for_run_first_call",
  n: 1,
  cpu_ms: round(inProcess.cpu[0]!, 2),
  wall_ms: round(inProcess.wall[0]!, 2),
});
inProcess.cpu.shift();
inProcess.wall.shift();
rows.push({
  case: "dev_nodes_for_run_repeated",
  n: runs - 1,
  cpu_median_ms: round(summarize(inProcess.cpu).median, 2),
  wall_median_ms: round(summarize(inProcess.wall).median, 2),
});

for (const row of rows) report("sandbox-dev-nodes", row);
mkdirSync(resolve(import.meta.dir, "out"), { recursive: true });
writeFileSync(resolve(import.meta.dir, "out/sandbox-dev-nodes.json"), `${JSON.stringify(rows, null, 2)}\n`);
rmSync(root, { recursive: true, force: true });
