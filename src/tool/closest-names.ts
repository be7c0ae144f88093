/**
 * "Did you mean …?": the names closest to one that was not found, by edit distance. Used for
 * unknown tool names, missing files, and typo-tolerant search.
 */

/**
 * Optimal-string-alignment distance, giving up (returning max + 1) as soon as every cell of a row
 * exceeds `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, before[j - 2]! + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

/**
 * The candidates within a small edit distance of `wanted` (case-insensitive; at most a third of
 * its length, and at least 2), closest first. `sameThing` marks candidates that count as an exact
 * match (distance 0) whatever their spelling, e.g. `index.js` for a missing `index.ts`.
 */
export function closestNames(
  wanted: string,
  candidates: readonly string[],
  limit: number,
  sameThing: (candidate: string) => boolean = () => false,
): string[] {
  const target = wanted.toLowerCase();
  const maxDistance = Math.max(2, Math.floor(target.length / 3));
  return candidates
    .map((candidate) => ({
      candidate,
      distance: sameThing(candidate) ? 0 : editDistance(target, candidate.toLowerCase(), maxDistance),
    }))
    .filter((c) => c.distance <= maxDistance)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, limit)
    .map((c) => c.candidate);
}
