/**
 * Cold wall time per hook decision: `dist/toolrt hook` against `cc-safety-net hook --claude-code`
 * (the benchmark-only devDependency), one fresh process per decision as a host runs them, on an
 * evenly spaced sample of the benign corpus (HOOK_BENCH_N commands, default 400), the two tools
 * alternating per command. Also the fast-path hit rate: commands decided without the WASM parser.
 *
 *   bun run build.ts && bun bench/hook.ts
 */
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
for (const dir of [cwd, home]) mkdirSync(dir, { recursive: true });
const env = { PATH: process.env.PATH ?? "", HOME: home, TOOLRT_HOME: join(root, "state") };

/** Milliseconds from spawn to exit, feeding one PreToolUse payload. */
async function decide(argv: string[], command: string): Promise<number> {
  const payload = JSON.stringify({
    session_id: "bench",
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: "toolu_bench",
  });
  const start = Bun.nanoseconds();
  const child = Bun.spawn(argv, { cwd, env, stdin: new Blob([payload]), stdout: "ignore", stderr: "ignore" });
  await child.exited;
  return (Bun.nanoseconds() - start) / 1e6;
}

for (const binary of [TOOLRT, SAFETY_NET]) {
  if (!existsSync(binary)) throw new Error(`${binary} is missing (bun run build.ts; npm install)`);
}

const toolrt: number[] = [];
const safetyNet: number[] = [];
const fast: number[] = [];
const parsed: number[] = [];
for (const command of sample) {
  const ms = await decide([TOOLRT, "hook"], command);
  toolrt.push(ms);
  (plainWords(command) ? fast : parsed).push(ms);
  safetyNet.push(await decide([SAFETY_NET, "hook", "--claude-code"], command));
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
for (const [tool, samples] of [["toolrt", toolrt], ["cc-safety-net", safetyNet]] as const) {
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
report("hook", { figure: "toolrt_fast_path", mean_ms: round(mean(fast), 2), n: fast.length });
report("hook", { figure: "toolrt_parser_path", mean_ms: round(mean(parsed), 2), n: parsed.length });
report("hook", {
  figure: "time_ratio_toolrt_over_cc_safety_net",
  ratio: round(mean(toolrt) / mean(safetyNet), 3),
});
const hits = corpus.filter((c) => plainWords(c) !== null).length;
report("hook", {
  figure: "fast_path_hit_rate",
  corpus: corpus.length,
  hits,
  rate: round(hits / corpus.length, 4),
});
