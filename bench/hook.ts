/**
 * Cold wall time per hook decision: `dist/toolrt hook` against `cc-safety-net hook --claude-code`
 * (the benchmark-only devDependency), one fresh process per decision as a host runs them, on an
 * evenly spaced sample of the benign corpus (HOOK_BENCH_N commands, default 400), alternating per
 * command between
 * - toolrt as installed: answered by its resident helper (started by the warm-up call),
 * - toolrt deciding in its own process (`TOOLRT_NO_HOOK_HELPER=1`; also what the first call of a
 *   session pays),
 * - an empty program compiled like dist/toolrt: the floor of any compiled Bun process,
 * - cc-safety-net.
 * Also the fast-path hit rate (commands decided without the WASM parser) and the load average.
 *
 *   bun run build.ts && bun bench/hook.ts
 */
import "./support/isolated-home.ts";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary } from "../build.ts";
import { plainWords } from "../src/bash/tokenize.ts";
import { benignCommands } from "../test/bash/benign-corpus.ts";
import { report, round, summarize } from "./support/lib.ts";

const ROOT = join(import.meta.dir, "..");
const TOOLRT = join(ROOT, "dist/toolrt");
const SAFETY_NET = join(ROOT, "node_modules/.bin/cc-safety-net");

const corpus = benignCommands();
const n = Math.min(corpus.length, Number(process.env.HOOK_BENCH_N ?? 400));
const sample = Array.from({ length: n }, (_, i) => corpus[Math.floor((i * corpus.length) / n)]!);

const root = mkdtempSync(join(tmpdir(), "toolrt-hook-bench-"));
const cwd = join(root, "work");
const home = join(root, "home");
const stateDir = join(root, "state");
for (const dir of [cwd, home]) mkdirSync(dir, { recursive: true });
const env = { PATH: process.env.PATH ?? "", HOME: home, TOOLRT_HOME: stateDir };

/** Milliseconds from spawn to exit, feeding one PreToolUse payload. */
async function decide(
  argv: string[],
  command: string,
  extraEnv: Record<string, string> = {},
): Promise<number> {
  const payload = JSON.stringify({
    session_id: "bench",
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: "toolu_bench",
  });
  const start = Bun.nanoseconds();
  const child = Bun.spawn(argv, {
    cwd,
    env: { ...env, ...extraEnv },
    stdin: new Blob([payload]),
    stdout: "ignore",
    stderr: "ignore",
  });
  await child.exited;
  return (Bun.nanoseconds() - start) / 1e6;
}

for (const binary of [TOOLRT, SAFETY_NET]) {
  if (!existsSync(binary)) throw new Error(`${binary} is missing (bun run build.ts; npm install)`);
}
const empty = join(root, "empty");
writeFileSync(`${empty}.ts`, "process.exitCode = 0;\n");
await buildBinary({ outfile: empty, features: [], entrypoint: `${empty}.ts` });

// The first call starts the helper; wait for its socket.
await decide([TOOLRT, "hook"], "true");
const socketUp = () => existsSync(stateDir) && readdirSync(stateDir).some((f) => f.endsWith(".sock"));
for (let waited = 0; !socketUp() && waited < 5_000; waited += 20) await Bun.sleep(20);
if (!socketUp()) throw new Error(`no resident helper socket in ${stateDir}`);

const loadBefore = loadavg();
const helper: number[] = [];
const inProcess: number[] = [];
const floor: number[] = [];
const safetyNet: number[] = [];
const fast: number[] = [];
const parsed: number[] = [];
for (const command of sample) {
  helper.push(await decide([TOOLRT, "hook"], command));
  const ms = await decide([TOOLRT, "hook"], command, { TOOLRT_NO_HOOK_HELPER: "1" });
  inProcess.push(ms);
  (plainWords(command) ? fast : parsed).push(ms);
  floor.push(await decide([empty], command));
  safetyNet.push(await decide([SAFETY_NET, "hook", "--claude-code"], command));
}
const loadAfter = loadavg();
rmSync(root, { recursive: true, force: true }); // the helper leaves when its socket is gone

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const runs = [
  ["toolrt (resident helper)", helper],
  ["toolrt (in its own process)", inProcess],
  ["empty compiled program", floor],
  ["cc-safety-net", safetyNet],
] as const;
for (const [tool, samples] of runs) {
  const s = summarize(samples);
  report("hook", {
    tool,
    per: "decision",
    mean_ms: round(mean(samples), 2),
    median_ms: round(s.median, 2),
    p99_ms: round(s.p99, 2),
    n: s.n,
  });
}
report("hook", { figure: "in_process_fast_path", mean_ms: round(mean(fast), 2), n: fast.length });
report("hook", { figure: "in_process_parser_path", mean_ms: round(mean(parsed), 2), n: parsed.length });
for (const [figure, samples] of [["helper", helper], ["in_process", inProcess], ["floor", floor]] as const) {
  report("hook", {
    figure: `time_ratio_${figure}_over_cc_safety_net`,
    mean: round(mean(samples) / mean(safetyNet), 3),
    median: round(summarize(samples).median / summarize(safetyNet).median, 3),
  });
}
const hits = corpus.filter((c) => plainWords(c) !== null).length;
report("hook", {
  figure: "fast_path_hit_rate",
  corpus: corpus.length,
  hits,
  rate: round(hits / corpus.length, 4),
});
report("hook", {
  figure: "load_average_1m",
  before: round(loadBefore[0]!, 2),
  after: round(loadAfter[0]!, 2),
});
