/** Cold start of the compiled binary: `dist/toolrt --version` and `dist/toolrt tools --json`, median of 20. */
import "./support/isolated-home.ts";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { report, round, summarize, timeRuns } from "./support/lib.ts";

const binary = join(import.meta.dir, "..", "dist", "toolrt");
if (!existsSync(binary)) {
  console.error("bench/startup.ts: dist/toolrt is missing; run `npm run build` first");
  process.exit(2);
}

for (const args of [["--version"], ["tools", "--json"]]) {
  const samples = await timeRuns(20, () => {
    const run = Bun.spawnSync([binary, ...args], { cwd: tmpdir(), stdout: "ignore", stderr: "ignore" });
    if (run.exitCode !== 0) throw new Error(`${args.join(" ")} exited ${run.exitCode}`);
  }, 2);
  const s = summarize(samples);
  report(`startup.${args.join("_").replace(/-/g, "")}`, {
    command: `dist/toolrt ${args.join(" ")}`,
    median_ms: round(s.median),
    p99_ms: round(s.p99),
    min_ms: round(s.min),
    n: s.n,
  });
}
