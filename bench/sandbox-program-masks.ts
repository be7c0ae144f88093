/**
 * What keeping rule-named programs from starting costs a sandboxed run. In process: the check a run
 * without rules makes (are there policy files at all?), and the planning of stubs for one program
 * and for a program with a hard link. Whole runs of `dist/toolrt sandbox -- true` (wall and CPU,
 * from rusage): without rules; with `--mask-program curl --policy-rules off` (stubs, no policy
 * read); with `--ask 'Bash(curl:*)'` (the policy loaded and the line analysed, then the stub).
 *
 * bun bench/sandbox-program-masks.ts   (needs dist/toolrt and a usable bwrap)
 * Prints one JSON line per figure and writes them to bench/out/sandbox-program-masks.json.
 */
import "./support/isolated-home.ts";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxMasks } from "../src/cli/sandbox-masks.ts";
import { globalsFrom, loadOptionsOf } from "../src/cli/options.ts";
import { detectSandbox } from "../src/sandbox/detect.ts";
import { planProgramMasks } from "../src/sandbox/program-masks.ts";
import { report, round, summarize, timeRuns } from "./support/lib.ts";

const binary = join(import.meta.dir, "..", "dist", "toolrt");
if (!(await Bun.file(binary).exists()) || !detectSandbox().available) {
  console.error("bench/sandbox-program-masks.ts: needs dist/toolrt (npm run build) and a usable bwrap");
  process.exit(2);
}
const REPEATS = 15;
const ws = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-bench-masks-")));
const results: Array<Record<string, number | string>> = [];
const emit = (bench: string, figures: Record<string, number | string>) => {
  report(bench, figures);
  results.push({ bench, ...figures });
};
const micro = (samples: number[]) => ({
  median_us: round(summarize(samples).median * 1000, 1),
  p99_us: round(summarize(samples).p99 * 1000, 1),
  n: samples.length,
});

const noRules = { given: [], load: loadOptionsOf({ ...globalsFrom({}), cwd: ws }) };
emit(
  "masks: no rules (policy files looked for, none loaded)",
  micro(await timeRuns(200, () => sandboxMasks(["true"], noRules), 20)),
);
const curl = [{ program: "curl", why: "bench" }];
emit(
  "masks: plan stubs for curl",
  micro(await timeRuns(50, () => planProgramMasks(curl, { pathEnv: process.env.PATH ?? "" }), 5)),
);
const perl = [{ program: "perl", why: "bench (a file with a hard link: the bin directories are read)" }];
emit(
  "masks: plan stubs for perl",
  micro(await timeRuns(50, () => planProgramMasks(perl, { pathEnv: process.env.PATH ?? "" }), 5)),
);

function timed(args: string[]): { wall: number; cpu: number; code: number } {
  const start = Bun.nanoseconds();
  const run = Bun.spawnSync([binary, ...args], { cwd: ws, stdout: "ignore", stderr: "pipe" });
  const wall = (Bun.nanoseconds() - start) / 1e6;
  return { wall, cpu: Number(run.resourceUsage.cpuTime.total) / 1000, code: run.exitCode ?? -1 };
}
const cases: Array<[string, string[]]> = [
  ["sandbox -- true, no rules", ["sandbox", "--workspace", ws, "--", "true"]],
  ["sandbox -- true, --mask-program curl --policy-rules off", [
    "sandbox",
    "--workspace",
    ws,
    "--mask-program",
    "curl",
    "--policy-rules",
    "off",
    "--",
    "true",
  ]],
  ["sandbox -- true, --ask Bash(curl:*)", [
    "--ask",
    "Bash(curl:*)",
    "sandbox",
    "--workspace",
    ws,
    "--",
    "true",
  ]],
];
const samples = cases.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
for (const [, args] of cases) timed(args); // warm the indexes and the page cache
for (let i = 0; i < REPEATS; i++) {
  cases.forEach(([name, args], c) => {
    const t = timed(args);
    if (t.code !== 0) throw new Error(`${name}: exit ${t.code}`);
    samples[c]!.wall.push(t.wall);
    samples[c]!.cpu.push(t.cpu);
  });
}
cases.forEach(([name], c) => {
  emit(name, {
    wall_median_ms: round(summarize(samples[c]!.wall).median, 1),
    cpu_median_ms: round(summarize(samples[c]!.cpu).median, 1),
    n: REPEATS,
  });
});
mkdirSync(join(import.meta.dir, "out"), { recursive: true });
writeFileSync(
  join(import.meta.dir, "out", "sandbox-program-masks.json"),
  `${JSON.stringify(results, null, 2)}\n`,
);
rmSync(ws, { recursive: true, force: true });
