/** Shared helpers for benchmarks: every figure is printed as one JSON object on its own line. */

export function report(bench: string, figures: Record<string, number | string>): void {
  console.log(JSON.stringify({ bench, ...figures }));
}

export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index]!;
}

export interface Summary {
  median: number;
  p99: number;
  min: number;
  n: number;
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    min: sorted[0] ?? NaN,
    n: sorted.length,
  };
}

/** Times `fn` n times (after `warmup` untimed runs); returns milliseconds per run. */
export async function timeRuns(n: number, fn: () => unknown, warmup = 0): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = Bun.nanoseconds();
    await fn();
    samples.push((Bun.nanoseconds() - start) / 1e6);
  }
  return samples;
}

export const round = (value: number, digits = 3) => Number(value.toFixed(digits));
