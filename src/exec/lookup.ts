/** Stage 1: find the tool by name or alias; an unknown name lists the closest names. */
import type { AssembledPool } from "../pool/assemble.ts";
import type { DiscoveredTools } from "../search/discovered.ts";
import type { AnyTool } from "../tool/types.ts";

/**
 * For model-driven sessions: a deferred tool is callable only once ToolSearch has found it, and a
 * found tool that has since vanished fails with an error naming its source.
 */
export interface DiscoveryGate {
  discovered: DiscoveredTools;
  isDeferred: (tool: AnyTool) => boolean;
}

export type LookupResult =
  | { ok: true; tool: AnyTool; notice?: string }
  | { ok: false; message: string };

export function lookupTool(pool: AssembledPool, name: string, gate?: DiscoveryGate): LookupResult {
  if (gate) {
    const callable = gate.discovered.resolve(name, (n) => pool.byName.get(n), gate.isDeferred);
    if (!callable.ok && gate.discovered.has(name)) return { ok: false, message: callable.message };
    if (!callable.ok && pool.byName.has(name)) return { ok: false, message: `Error: ${callable.message}` };
  }
  const tool = pool.byName.get(name);
  if (tool) {
    const notice = tool.deprecatedAliases.includes(name)
      ? `Note: ${name} is a deprecated name of ${tool.name}; call ${tool.name} from now on.`
      : undefined;
    return notice ? { ok: true, tool, notice } : { ok: true, tool };
  }
  // A tool the mode, a deny rule or the tool itself keeps out of this session: say why.
  const hidden = pool.hidden.find((h) => h.name === name);
  if (hidden) {
    return { ok: false, message: `Error: ${name} is not available in this session: ${hidden.reason}.` };
  }
  const close = closestNames(name, [...pool.byName.keys()], 3);
  const hint = close.length ? ` Did you mean ${close.join(", ")}?` : "";
  return { ok: false, message: `Error: No such tool available: ${name}.${hint}` };
}

/** Names within a small edit distance (case-insensitive), closest first. */
function closestNames(name: string, candidates: string[], limit: number): string[] {
  const target = name.toLowerCase();
  const maxDistance = Math.max(2, Math.floor(target.length / 3));
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(target, candidate.toLowerCase(), maxDistance) }))
    .filter((c) => c.distance <= maxDistance)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, limit)
    .map((c) => c.candidate);
}

/** Levenshtein distance, giving up (returning limit + 1) once it cannot stay within `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}
