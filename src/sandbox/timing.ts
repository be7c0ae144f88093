/**
 * Start-up profiling of sandboxed runs: with TOOLRT_SANDBOX_TIMING=1 every mark prints
 * `toolrt-timing <label> <ms since the process started> cpu=<ms of CPU used so far>` on stderr (the
 * CPU figure stays meaningful on a loaded machine). Off, a mark is one test. Written straight to
 * descriptor 2: setting up `process.stderr` would itself cost milliseconds and blur the figures.
 */
import { writeSync } from "node:fs";

const enabled = process.env.TOOLRT_SANDBOX_TIMING === "1";

export function timingMark(label: string): void {
  if (!enabled) return;
  const cpu = process.cpuUsage();
  const cpuMs = ((cpu.user + cpu.system) / 1000).toFixed(1);
  writeSync(2, `toolrt-timing ${label} ${performance.now().toFixed(2)} cpu=${cpuMs}\n`);
}
