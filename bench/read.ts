/**
 * Read of a 10 MB text file with an offset near its end: the cost of reaching a late window.
 * Prints one JSON object per figure. Run: `bun bench/read.ts`.
 */
import "./support/isolated-home.ts";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTool } from "../src/tools/read/tool.ts";
import { createToolContext } from "../src/tool/context.ts";

const RUNS = 30;
const TARGET_BYTES = 10 * 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), "toolrt-bench-read-"));
try {
  const line = "const value = computeSomething(alpha, beta, gamma); // a typical source line\n";
  const lineCount = Math.ceil(TARGET_BYTES / line.length);
  const path = join(dir, "big.txt");
  writeFileSync(path, line.repeat(lineCount));
  const ctx = createToolContext({ cwd: dir, stateDir: dir, mode: "default", invokedBy: "cli" });
  const input = { file_path: path, offset: lineCount - 100, limit: 100 };
  await readTool.call(input, ctx, () => {}); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const result = await readTool.call(input, ctx, () => {});
    times.push(performance.now() - start);
    if (result.data.kind !== "text" || result.data.numLines !== 100) {
      throw new Error("unexpected Read result");
    }
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  console.log(JSON.stringify({
    bench: "read.10mb.offset",
    median_ms: Number(at(0.5).toFixed(2)),
    p99_ms: Number(at(0.99).toFixed(2)),
    n: RUNS,
  }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
