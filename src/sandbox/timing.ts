/**
 * Start-up profiling of sandboxed runs: with TOOLRT_SANDBOX_TIMING=1 every mark prints
 * `toolrt-timing <label> <ms since the process started>` on stderr. Off, a mark is one test.
 */
const enabled = process.env.TOOLRT_SANDBOX_TIMING === "1";

export function timingMark(label: string): void {
  if (enabled) process.stderr.write(`toolrt-timing ${label} ${performance.now().toFixed(2)}\n`);
}
