/**
 * The exporters a process has opened, and the exit flush over all of them. Kept apart from the
 * configuration so the command line can flush at exit without loading anything when telemetry was
 * never opened.
 */
import type { FlushOptions } from "./exporter.ts";

interface Flushable {
  flush(deadlineMs: number, options?: FlushOptions): Promise<void>;
}

const open = new Map<string, Flushable>();

export function registered<T extends Flushable>(key: string, create: () => T): T {
  let exporter = open.get(key) as T | undefined;
  if (!exporter) open.set(key, exporter = create());
  return exporter;
}

/** How long a command waits for the collector at exit before keeping the rest for later. */
export const EXIT_DEADLINE_MS = 1_000;

/**
 * Sends what every exporter of this process holds, waiting at most `deadlineMs` (0: keep it all
 * for a later process at once). Free when telemetry was never opened.
 */
export async function flushTelemetry(deadlineMs: number, options: FlushOptions = {}): Promise<void> {
  await Promise.all(
    [...open.values()].map((exporter) => exporter.flush(deadlineMs, options).catch(() => {})),
  );
}
