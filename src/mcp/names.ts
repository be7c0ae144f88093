/** Name collisions between MCP servers or tools whose names normalise to the same string. */

export interface NameCollision {
  /** The name both wanted. */
  name: string;
  kept: string;
  dropped: string;
}

/**
 * Keeps the first of several originals that normalise to the same name and reports the rest.
 * Input order decides who keeps a name, so callers pass a stable order.
 */
export function dedupeByNormalizedName<T>(
  items: readonly T[],
  nameOf: (item: T) => string,
  normalize: (name: string) => string,
): { kept: T[]; collisions: NameCollision[] } {
  const owners = new Map<string, string>();
  const kept: T[] = [];
  const collisions: NameCollision[] = [];
  for (const item of items) {
    const original = nameOf(item);
    const name = normalize(original);
    const owner = owners.get(name);
    if (owner !== undefined) {
      collisions.push({ name, kept: owner, dropped: original });
      continue;
    }
    owners.set(name, original);
    kept.push(item);
  }
  return { kept, collisions };
}
