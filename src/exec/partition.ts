/**
 * Orchestration for a complete list of calls: consecutive concurrency-safe calls form one parallel
 * batch (at most `maxConcurrency` at a time); every other call runs alone. Results come back in the
 * order the calls were made.
 */
import type { ToolCall } from "./types.ts";

export interface Batch {
  concurrent: boolean;
  calls: ToolCall[];
}

export function partitionToolCalls(calls: readonly ToolCall[], isSafe: (call: ToolCall) => boolean): Batch[] {
  const batches: Batch[] = [];
  for (const call of calls) {
    const safe = isSafe(call);
    const last = batches.at(-1);
    if (safe && last?.concurrent) last.calls.push(call);
    else batches.push({ concurrent: safe, calls: [call] });
  }
  return batches;
}

/** Runs the batches in order; inside a concurrent batch at most `maxConcurrency` calls at once. */
export async function runPartitioned<R>(
  batches: readonly Batch[],
  run: (call: ToolCall) => Promise<R>,
  maxConcurrency: number,
): Promise<R[]> {
  const results: R[] = [];
  for (const batch of batches) {
    if (!batch.concurrent) {
      results.push(await run(batch.calls[0]!));
      continue;
    }
    results.push(...await mapWithLimit(batch.calls, run, maxConcurrency));
  }
  return results;
}

async function mapWithLimit<T, R>(
  items: readonly T[],
  fn: (item: T) => Promise<R>,
  limit: number,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
