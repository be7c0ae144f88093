/**
 * Bash analyzer benchmarks, one JSON object per figure:
 * warm analysis per command, WASM start-up (from source and in a compiled binary, fresh processes),
 * fast-path hit rate, and `toolrt analyze --batch` throughput. Run: `bun bench/bash.ts [--quick]`.
 */
import "./support/isolated-home.ts";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeBashSync } from "../src/bash/analyze.ts";
import { loadBashParser } from "../src/bash/parser.ts";
import { plainWords } from "../src/bash/tokenize.ts";

const ROOT = join(import.meta.dir, "..");
const quick = process.argv.includes("--quick");
const corpusPath = join(ROOT, "fixtures/data/benign-commands.txt");
const corpus = readFileSync(corpusPath, "utf8").split("\n").filter((l) => l !== "");

function emit(figure: Record<string, unknown>): void {
  console.log(JSON.stringify(figure));
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const round = (n: number) => Math.round(n * 100) / 100;

// Warm analysis: parser loaded, every corpus line analyzed, several passes.
await loadBashParser();
for (const line of corpus) analyzeBashSync(line);
const samples: number[] = [];
const parsedSamples: number[] = [];
for (let pass = 0; pass < (quick ? 1 : 5); pass++) {
  for (const line of corpus) {
    const start = Bun.nanoseconds();
    analyzeBashSync(line);
    const us = (Bun.nanoseconds() - start) / 1000;
    samples.push(us);
    if (plainWords(line) === null) parsedSamples.push(us);
  }
}
for (
  const [bench, list] of [["bash.analyze.warm", samples], [
    "bash.analyze.warm.parsed",
    parsedSamples,
  ]] as const
) {
  list.sort((a, b) => a - b);
  emit({ bench, median_us: round(quantile(list, 0.5)), p99_us: round(quantile(list, 0.99)), n: list.length });
}

const hits = corpus.filter((line) => plainWords(line) !== null).length;
emit({ bench: "bash.fastpath.hit_rate", ratio: round(hits / corpus.length), hits, n: corpus.length });

// Start-up in fresh processes: the time loadBashParser() takes, split into runtime init and grammar load.
const dir = mkdtempSync(join(tmpdir(), "toolrt-bench-bash-"));
const probe = join(import.meta.dir, "support", "bash-startup-probe.ts");
const runs = quick ? 3 : 10;

function startup(argv: string[], label: string, arg: string): void {
  const inProcess: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const proc = Bun.spawnSync([...argv, arg], { cwd: dir, env: { ...process.env } });
    wall.push(performance.now() - start);
    const out = JSON.parse(proc.stdout.toString()) as Record<string, number>;
    inProcess.push(Object.values(out).reduce((a, b) => a + b, 0));
  }
  inProcess.sort((a, b) => a - b);
  wall.sort((a, b) => a - b);
  emit({
    bench: label,
    median_ms: round(quantile(inProcess, 0.5)),
    process_wall_median_ms: round(quantile(wall, 0.5)),
    n: runs,
  });
}

startup([process.execPath, probe], "bash.wasm.startup.source", "echo $(id)");
startup([process.execPath, probe], "bash.wasm.startup.source.fastpath", "git status");
const binary = join(dir, "probe-bin");
const build = Bun.spawnSync([process.execPath, "build", "--compile", probe, "--outfile", binary], {
  cwd: ROOT,
});
if (build.exitCode !== 0) throw new Error(`compile failed: ${build.stderr.toString()}`);
startup([binary], "bash.wasm.startup.compiled", "echo $(id)");
startup([binary], "bash.wasm.startup.compiled.fastpath", "git status");
startup([binary], "bash.wasm.startup.compiled.split", "split");

// analyze --batch throughput over the whole corpus, from source.
const batchFile = join(dir, "corpus.txt");
writeFileSync(batchFile, corpus.join("\n") + "\n");
const start = performance.now();
const batch = Bun.spawnSync([
  process.execPath,
  join(ROOT, "src/cli/main.ts"),
  "analyze",
  "--batch",
  batchFile,
]);
const seconds = (performance.now() - start) / 1000;
const lines = batch.stdout.toString().trim().split("\n").length;
if (lines !== corpus.length) throw new Error(`batch printed ${lines} lines for ${corpus.length} commands`);
emit({
  bench: "bash.analyze.batch",
  commands_per_s: Math.round(lines / seconds),
  seconds: round(seconds),
  n: lines,
});
