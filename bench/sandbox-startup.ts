/**
 * Sandbox start-up against workspace size: `dist/toolrt sandbox -- true` and `true` through the Bash
 * tool wired to the sandbox, first call (no index yet) and repeated calls, against bare
 * `bwrap --ro-bind / / true` and an empty workspace in the same run. Each workspace holds a git
 * repository with nested repositories, a `node_modules` tree (16 empty files a directory) and 1,000
 * files in `.git/objects` hard-linked to files outside (what `git clone --local` makes).
 *
 * Commands run as child processes also report the CPU they used (theirs and bwrap's, from rusage):
 * on a loaded machine wall-clock time mostly measures the wait for a CPU, CPU time does not. Bash
 * tool calls report the runtime's own CPU (`runtime_cpu_*`: this process; bwrap's is not in it).
 *
 * Repeated `toolrt sandbox` calls ask the workspace's change watcher (`watch-service.ts`): the
 * first call starts it, and the repeated ones are measured once it listens (`watcher_wait_s`), the
 * baseline's as well; one extra call with TOOLRT_SANDBOX_TIMING=1 records how they were
 * revalidated (`revalidation`).
 *
 * bun bench/sandbox-startup.ts [SIZES...]   (default 100 10000 100000 1000000; needs dist/toolrt)
 * With TOOLRT_BENCH_BASELINE=DIR (another checkout, built, with node_modules), its `toolrt sandbox`
 * and Bash tool are measured in the same run, interleaved (rows `*_baseline`): before and after.
 * Prints one JSON line per figure and writes them all to bench/out/sandbox-startup.json. Workspaces,
 * state dir and HOME are temp dirs, removed at the end.
 */
import "./support/isolated-home.ts";
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { detectSandbox } from "../src/sandbox/detect.ts";
import { report, round, summarize } from "./support/lib.ts";

/** One toolrt to measure: its binary and the modules of its Bash tool. */
interface Subject {
  suffix: string;
  binary: string;
  root: string;
}
const subjects: Subject[] = [{ suffix: "", binary: "", root: resolve(import.meta.dir, "..") }];
if (process.env.TOOLRT_BENCH_BASELINE) {
  subjects.push({ suffix: "_baseline", binary: "", root: resolve(process.env.TOOLRT_BENCH_BASELINE) });
}
for (const s of subjects) s.binary = join(s.root, "dist", "toolrt");
const bwrap = Bun.which("bwrap");
if (!subjects.every((s) => existsSync(s.binary)) || !bwrap || !detectSandbox().available) {
  console.error("bench/sandbox-startup.ts: needs dist/toolrt (npm run build) and a usable bwrap");
  process.exit(2);
}
const sizes = Bun.argv.slice(2).map(Number);
if (sizes.length === 0) sizes.push(100, 10_000, 100_000, 1_000_000);
const REPEATS = 15;
const FILES_PER_DIR = 16;
const LINKED_IN_GIT = 1000;

const base = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-bench-startup-")));
const home = join(base, "home");
mkdirSync(home);
const load = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
const results: Array<Record<string, number | string>> = [];
const emit = (bench: string, figures: Record<string, number | string>) => {
  report(bench, figures);
  results.push({ bench, ...figures });
};

/** A git repository of about `files` files: nested repos, node_modules, linked objects in .git. */
function makeWorkspace(name: string, files: number): { ws: string; seconds: number } {
  const start = Bun.nanoseconds();
  const ws = join(base, name);
  const outside = join(base, `${name}-outside`);
  mkdirSync(ws);
  mkdirSync(outside);
  const git = (cwd: string) =>
    Bun.spawnSync(["git", "init", "-q", cwd], { stdout: "ignore", stderr: "ignore" });
  git(ws);
  for (const nested of ["vendor/liba", "vendor/libb", "packages/tool"]) {
    mkdirSync(join(ws, nested), { recursive: true });
    git(join(ws, nested));
  }
  const linked = Math.min(LINKED_IN_GIT, Math.max(0, files - 100));
  for (let i = 0; i < linked; i++) {
    const hex = (i * 2654435761 >>> 0).toString(16).padStart(8, "0");
    const dir = join(ws, ".git", "objects", hex.slice(0, 2));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(outside, hex), "o");
    linkSync(join(outside, hex), join(dir, hex.slice(2)));
  }
  let made = linked;
  for (let d = 0; made < files; d++) {
    const dir = join(ws, "node_modules", `p${d % 64}`, `m${Math.floor(d / 64) % 64}`, `d${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < FILES_PER_DIR && made < files; f++, made++) writeFileSync(join(dir, `f${f}.js`), "");
  }
  return { ws, seconds: (Bun.nanoseconds() - start) / 1e9 };
}

/** Wall-clock and CPU milliseconds of one run of `argv`. */
function timed(argv: string[], cwd: string, env: Record<string, string>): { wall: number; cpu: number } {
  const start = Bun.nanoseconds();
  const run = Bun.spawnSync(argv, { cwd, env, stdout: "ignore", stderr: "pipe" });
  const wall = (Bun.nanoseconds() - start) / 1e6;
  if (run.exitCode !== 0) throw new Error(`${argv.join(" ")} exited ${run.exitCode}: ${run.stderr}`);
  return { wall, cpu: Number(run.resourceUsage.cpuTime.total) / 1000 };
}

function figures(values: number[], cpu: number[] = []) {
  const s = summarize(values);
  return {
    median_ms: round(s.median, 1),
    min_ms: round(s.min, 1),
    ...(cpu.length ? { cpu_median_ms: round(summarize(cpu).median, 1) } : {}),
    n: s.n,
    load_1m: load(),
  };
}

async function bashToolCalls(
  subject: Subject,
  ws: string,
  stateDir: string,
  times: number,
): Promise<{ wall: number[]; cpu: number[] }> {
  const module = (path: string) => import(join(subject.root, path));
  const [{ sandboxedLaunch }, { DEFAULT_SANDBOX_POLICY }, { createToolContext }, { createBashTool }] =
    await Promise
      .all([
        module("src/exec/processes/sandboxed-launch.ts"),
        module("src/policy/sandbox-policy.ts"),
        module("src/tool/context.ts"),
        module("src/tools/bash/tool.ts"),
      ]);
  const wrapLaunch = sandboxedLaunch({ policy: DEFAULT_SANDBOX_POLICY, workspace: ws, stateDir });
  const tool = createBashTool({ wrapLaunch });
  const ctx = createToolContext({ cwd: ws, stateDir, mode: "default", invokedBy: "cli" });
  // The runtime's own CPU per call (this process: the scan, plan and spawn; bwrap's is not in it).
  const samples = { wall: [] as number[], cpu: [] as number[] };
  const cpuMs = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  try {
    for (let i = 0; i < times; i++) {
      const start = Bun.nanoseconds();
      const cpuStart = cpuMs();
      const { data } = await tool.call({ command: "true" }, ctx, () => {});
      samples.wall.push((Bun.nanoseconds() - start) / 1e6);
      samples.cpu.push(cpuMs() - cpuStart);
      if (data.exitCode !== 0) throw new Error(`Bash tool: true exited ${data.exitCode}: ${data.stderr}`);
    }
  } finally {
    await wrapLaunch.close();
  }
  return samples;
}

const empty = join(base, "empty");
mkdirSync(empty);
const bare = [bwrap!, "--ro-bind", "/", "/", "true"];
const trueBin = Bun.which("true")!;

/**
 * Waits (up to two minutes) until the watcher a call started listens in `stateDir`: the seconds
 * waited, or -1 when none was started (a small tree) or none came.
 */
async function watcherListening(stateDir: string): Promise<number> {
  const dir = join(stateDir, "sandbox", "watch");
  const names = () => (existsSync(dir) ? readdirSync(dir) : []);
  const start = Date.now();
  while (Date.now() - start < 120_000) {
    if (names().some((name) => name.endsWith(".sock"))) return (Date.now() - start) / 1000;
    if (!names().some((name) => name.endsWith(".starting"))) return -1;
    await Bun.sleep(50);
  }
  return -1;
}

/** How a call was revalidated (`events` or `full`), from its timing marks. */
function revalidationOf(argv: string[], cwd: string, env: Record<string, string>): string {
  const run = Bun.spawnSync(argv, { cwd, env: { ...env, TOOLRT_SANDBOX_TIMING: "1" }, stderr: "pipe" });
  return run.stderr.toString().match(/wrap:scanned\((\w+)\)/)?.[1] ?? "unknown";
}

const median = (v: number[]) => summarize(v).median;

for (const size of sizes) {
  const { ws, seconds } = makeWorkspace(`ws-${size}`, size);
  emit("sandbox.startup.workspace", { files: size, generate_s: round(seconds, 1) });
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
  // Short: a watcher's socket path must fit in 100 bytes (`watch-service.ts`), or no watcher runs.
  const stateOf = (s: Subject, what: string) => join(base, `${what}${size}${s.suffix ? "b" : ""}`);
  const cli = (s: Subject) => [s.binary, "sandbox", "--", trueBin];
  const samples = new Map<string, { wall: number[]; cpu: number[] }>();
  const add = (name: string, t: { wall: number; cpu: number }) => {
    const entry = samples.get(name) ?? { wall: [], cpu: [] };
    entry.wall.push(t.wall);
    entry.cpu.push(t.cpu);
    samples.set(name, entry);
  };
  const firsts = new Map<string, { wall: number; cpu: number }>();
  const waits = new Map<string, number>();
  for (const s of subjects) {
    // First call: no index in the state dir yet (it starts the watcher, for the repeated calls).
    const cliEnv = { ...env, TOOLRT_HOME: stateOf(s, "cli") };
    firsts.set(s.suffix, timed(cli(s), ws, cliEnv));
    waits.set(s.suffix, await watcherListening(stateOf(s, "cli")));
    timed(cli(s), empty, { ...env, TOOLRT_HOME: stateOf(s, "empty") });
  }
  for (let i = 0; i < REPEATS; i++) {
    add("bare", timed(bare, ws, env));
    for (const s of subjects) {
      add(`empty${s.suffix}`, timed(cli(s), empty, { ...env, TOOLRT_HOME: stateOf(s, "empty") }));
      add(`toolrt${s.suffix}`, timed(cli(s), ws, { ...env, TOOLRT_HOME: stateOf(s, "cli") }));
    }
  }
  const bareFigures = samples.get("bare")!;
  emit("sandbox.startup.bare_bwrap", {
    files: size,
    command: "bwrap --ro-bind / / true",
    ...figures(bareFigures.wall, bareFigures.cpu),
  });
  for (const s of subjects) {
    const cliEnv = { ...env, TOOLRT_HOME: stateOf(s, "cli") };
    // A baseline that predates the marks (and the watcher) says "unknown".
    const revalidation = { revalidation: revalidationOf(cli(s), ws, cliEnv) };
    const firstTool = await bashToolCalls(s, ws, stateOf(s, "tool"), 1);
    const repeatedTool = await bashToolCalls(s, ws, stateOf(s, "tool"), REPEATS);
    const emptyTool = await bashToolCalls(s, empty, stateOf(s, "tool-empty"), REPEATS);
    const emptyRuns = samples.get(`empty${s.suffix}`)!;
    const runs = samples.get(`toolrt${s.suffix}`)!;
    const first = firsts.get(s.suffix)!;
    emit(`sandbox.startup.cli_empty${s.suffix}`, {
      files: size,
      command: "toolrt sandbox -- true (empty workspace)",
      ...figures(emptyRuns.wall, emptyRuns.cpu),
    });
    emit(`sandbox.startup.cli_first${s.suffix}`, {
      files: size,
      command: "toolrt sandbox -- true, no index",
      ms: round(first.wall, 1),
      cpu_ms: round(first.cpu, 1),
      load_1m: load(),
    });
    emit(`sandbox.startup.cli_repeated${s.suffix}`, {
      files: size,
      command: "toolrt sandbox -- true",
      ...figures(runs.wall, runs.cpu),
      x_empty: round(median(runs.wall) / median(emptyRuns.wall), 2),
      x_bare: round(median(runs.wall) / median(bareFigures.wall), 2),
      cpu_x_empty: round(median(runs.cpu) / median(emptyRuns.cpu), 2),
      cpu_x_bare: round(median(runs.cpu) / median(bareFigures.cpu), 2),
      ...revalidation,
      watcher_wait_s: round(waits.get(s.suffix)!, 2),
    });
    emit(`sandbox.startup.tool_first${s.suffix}`, {
      files: size,
      command: "Bash tool true, no index",
      ms: round(firstTool.wall[0]!, 1),
      runtime_cpu_ms: round(firstTool.cpu[0]!, 1),
      load_1m: load(),
    });
    emit(`sandbox.startup.tool_repeated${s.suffix}`, {
      files: size,
      command: "Bash tool true",
      ...figures(repeatedTool.wall.slice(1)),
      runtime_cpu_median_ms: round(median(repeatedTool.cpu.slice(1)), 1),
      x_empty: round(median(repeatedTool.wall.slice(1)) / median(emptyTool.wall.slice(1)), 2),
      x_bare: round(median(repeatedTool.wall.slice(1)) / median(bareFigures.wall), 2),
      runtime_cpu_x_empty: round(median(repeatedTool.cpu.slice(1)) / median(emptyTool.cpu.slice(1)), 2),
    });
    emit(`sandbox.startup.tool_empty${s.suffix}`, {
      files: size,
      command: "Bash tool true (empty workspace)",
      ...figures(emptyTool.wall.slice(1)),
      runtime_cpu_median_ms: round(median(emptyTool.cpu.slice(1)), 1),
    });
  }
  rmSync(ws, { recursive: true, force: true });
  rmSync(join(base, `ws-${size}-outside`), { recursive: true, force: true });
}
mkdirSync(join(import.meta.dir, "out"), { recursive: true });
writeFileSync(join(import.meta.dir, "out", "sandbox-startup.json"), JSON.stringify(results, null, 2));
rmSync(base, { recursive: true, force: true });
