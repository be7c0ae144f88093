/** Waiting on a promise for a bounded time, optionally cut short by an AbortSignal. */

/** Resolves when `promise` settles, `ms` pass or `signal` aborts, whichever is first; never rejects. */
export async function waitAtMost(promise: Promise<unknown>, ms: number, signal?: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    onAbort = resolve;
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([promise.then(() => {}, () => {}), limit]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort!);
  }
}
