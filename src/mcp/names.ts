/**
 * MCP tool names as the model sees them: `mcp__<server>__<tool>`, each part reduced to the
 * characters provider APIs accept (`[A-Za-z0-9_-]`).
 */

/** Replaces every character outside `[A-Za-z0-9_-]` with `_`. */
export function normalizeNamePart(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** `mcp__github__get_issue` from server `github` and tool `get.issue`. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeNamePart(server)}__${normalizeNamePart(tool)}`;
}

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
