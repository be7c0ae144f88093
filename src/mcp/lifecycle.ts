/**
 * How a long-running server process ends: on a stop signal, when its parent is gone, and within a
 * bound however its shutdown goes. What it started is stopped on the way out; whatever a shutdown
 * could not stop in time is killed by the exit hook of `trackGroup` (src/exec/processes).
 */

const PARENT_POLL_MS = 500;

/**
 * Calls `onGone` once the parent process has exited: the process is then re-parented, and its
 * parent pid changes. Without a parent to watch (started by init itself) it watches nothing.
 */
export function watchParent(onGone: () => void, intervalMs = PARENT_POLL_MS): () => void {
  const parent = process.ppid;
  if (parent <= 1) return () => {};
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];
const SIGNAL_NUMBERS: Record<StopSignal, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/**
 * Resolves with the first stop signal (SIGINT, SIGTERM, SIGHUP) to arrive, so the caller can shut
 * down in order. A second signal while that runs exits at once, as a person pressing Ctrl-C twice
 * expects (the exit hook still kills the process groups that are left).
 */
export function nextStopSignal(): Promise<StopSignal> {
  let received: StopSignal | undefined;
  return new Promise<StopSignal>((resolve) => {
    for (const name of STOP_SIGNALS) {
      process.on(name, () => {
        if (received) process.exit(128 + SIGNAL_NUMBERS[name]);
        received = name;
        resolve(name);
      });
    }
  });
}

/** Runs `shutdown`, giving up after `ms`: a hung shutdown must not keep the process alive. */
export async function shutdownWithin(ms: number, shutdown: () => Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await Promise.race([shutdown().catch(() => {}), limit]);
  } finally {
    clearTimeout(timer);
  }
}
