/** Runs every benchmark file in bench/ (helpers live in bench/support/) in turn; each prints JSON lines. */
import "./support/isolated-home.ts";
import { readdirSync } from "node:fs";
import { join } from "node:path";

const only = new Set(Bun.argv.slice(2));
const files = readdirSync(import.meta.dir)
  .filter((f) => f.endsWith(".ts") && f !== "all.ts")
  .filter((f) => only.size === 0 || only.has(f.replace(/\.ts$/, "")))
  .sort();
let failed = 0;
for (const file of files) {
  const run = Bun.spawnSync([process.execPath, join(import.meta.dir, file)], {
    stdout: "inherit",
    stderr: "inherit",
  });
  if (run.exitCode !== 0) failed++;
}
process.exit(failed ? 1 : 0);
