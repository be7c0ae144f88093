/**
 * Sandbox start-up against workspace size: `dist/toolrt sandbox -- true` and `true` through the Bash
 * tool wired to the sandbox, first call (no index yet) and repeated calls, against bare
 * `bwrap --ro-bind / / true` and an empty workspace in the same run. Each workspace holds a git
 * repository with nested repositories, a `node_modules` tree (16 empty files a directory) and 1,000
 * files in `.git/objects` hard-linked to files outside (what `git clone --local` makes).
 *
 * Commands run as child processes also report the CPU they used (theirs and bwrap's, from rusage):
 * on a loaded machine wall-clock time mostly measures the wait for a CPU, CPU time does not.
 *
 * bun bench/sandbox-startup.ts [SIZES...]   (default 100 10000 100000 1000000; needs dist/toolrt)
 * Prints one JSON line per figure and writes them all to bench/out/sandbox-startup.json. Workspaces,
 * state dir and HOME are temp dirs, removed at the end.
 */
import "./support/isolated-home.ts";
import { linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxedLaunch } from "../src/exec/processes/sandboxed-launch.ts";
import { DEFAULT_SANDBOX_POLICY } from "../src/policy/sandbox-policy.ts";
import { detectSandbox } from "../src/sandbox/detect.ts";
import { createToolContext } from "../src/tool/context.ts";
import { createBashTool } from "../src/tools/bash/tool.ts";
import { report, round, summarize } from "./support/lib.ts";

const binary = join(import.meta.dir, "..", "dist", "toolrt");
const bwrap = Bun.which("bwrap");
if (!(await Bun.file(binary).exists()) || !bwrap || !detectSandbox().available) {
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

async function bashToolCalls(ws: string, stateDir: string, times: number): Promise<number[]> {
  const wrapLaunch = sandboxedLaunch({ policy: DEFAULT_SANDBOX_POLICY, workspace: ws, stateDir });
  const tool = createBashTool({ wrapLaunch });
  const ctx = createToolContext({ cwd: ws, stateDir, mode: "default", invokedBy: "cli" });
  const samples: number[] = [];
  try {
    for (let i = 0; i < times; i++) {
      const start = Bun.nanoseconds();
      const { data } = await tool.call({ command: "true" }, ctx, () => {});
      samples.push((Bun.nanoseconds() - start) / 1e6);
      if (data.exitCode !== 0) throw new Error(`Bash tool: true exited ${data.exitCode}: ${data.stderr}`);
    }
  } finally {
    await wrapLaunch.close();
  }
  return samples;
}

const empty = join(base, "empty");
mkdirSync(empty);
const bare = [bwrap, "--ro-bind", "/", "/", "true"];
const trueBin = Bun.which("true")!;

for (const size of sizes) {
  const { ws, seconds } = makeWorkspace(`ws-${size}`, size);
  emit("sandbox.startup.workspace", { files: size, generate_s: round(seconds, 1) });
  const stateDir = join(base, `state-${size}`);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TOOLRT_HOME: stateDir };
  const emptyEnv = { ...env, TOOLRT_HOME: join(base, `state-empty-${size}`) };
  const toolrt = [binary, "sandbox", "--", trueBin];
  // First calls: no index in the state dir yet.
  const first = timed(toolrt, ws, env);
  rmSync(join(stateDir, "sandbox"), { recursive: true, force: true });
  const firstTool = (await bashToolCalls(ws, join(base, `state-tool-${size}`), 1))[0]!;
  const samples = { bare: [] as number[], empty: [] as number[], toolrt: [] as number[] };
  const cpu = { bare: [] as number[], empty: [] as number[], toolrt: [] as number[] };
  timed(toolrt, ws, env); // builds the index again
  timed(toolrt, empty, emptyEnv);
  for (let i = 0; i < REPEATS; i++) {
    for (
      const [name, argv, cwd, e] of [
        ["bare", bare, ws, env],
        ["empty", toolrt, empty, emptyEnv],
        ["toolrt", toolrt, ws, env],
      ] as const
    ) {
      const t = timed([...argv], cwd, e);
      samples[name].push(t.wall);
      cpu[name].push(t.cpu);
    }
  }
  const repeatedTool = await bashToolCalls(ws, join(base, `state-tool-${size}`), REPEATS);
  const emptyTool = await bashToolCalls(empty, join(base, `state-tool-empty-${size}`), REPEATS);
  const median = (v: number[]) => summarize(v).median;
  emit("sandbox.startup.bare_bwrap", {
    files: size,
    command: "bwrap --ro-bind / / true",
    ...figures(samples.bare, cpu.bare),
  });
  emit("sandbox.startup.cli_empty", {
    files: size,
    command: "toolrt sandbox -- true (empty workspace)",
    ...figures(samples.empty, cpu.empty),
  });
  emit("sandbox.startup.cli_first", {
    files: size,
    command: "toolrt sandbox -- true, no index",
    ms: round(first.wall, 1),
    cpu_ms: round(first.cpu, 1),
    load_1m: load(),
  });
  emit("sandbox.startup.cli_repeated", {
    files: size,
    command: "toolrt sandbox -- true",
    ...figures(samples.toolrt, cpu.toolrt),
    x_empty: round(median(samples.toolrt) / median(samples.empty), 2),
    x_bare: round(median(samples.toolrt) / median(samples.bare), 2),
    cpu_x_empty: round(median(cpu.toolrt) / median(cpu.empty), 2),
    cpu_x_bare: round(median(cpu.toolrt) / median(cpu.bare), 2),
  });
  emit("sandbox.startup.tool_first", {
    files: size,
    command: "Bash tool true, no index",
    ms: round(firstTool, 1),
    load_1m: load(),
  });
  emit("sandbox.startup.tool_repeated", {
    files: size,
    command: "Bash tool true",
    ...figures(repeatedTool.slice(1)),
    x_empty: round(median(repeatedTool.slice(1)) / median(emptyTool.slice(1)), 2),
  });
  emit("sandbox.startup.tool_empty", {
    files: size,
    command: "Bash tool true (empty workspace)",
    ...figures(emptyTool.slice(1)),
  });
  rmSync(ws, { recursive: true, force: true });
  rmSync(join(base, `ws-${size}-outside`), { recursive: true, force: true });
}
mkdirSync(join(import.meta.dir, "out"), { recursive: true });
writeFileSync(join(import.meta.dir, "out", "sandbox-startup.json"), JSON.stringify(results, null, 2));
rmSync(base, { recursive: true, force: true });
