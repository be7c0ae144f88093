/** Stage 1: find the tool by name or alias; an unknown name lists the closest names. */
import { closestNames } from "../tool/closest-names.ts";
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

/** Why a tool that is not in the pool cannot be called now (its MCP server is still connecting, say). */
export type UnavailableReason = (name: string) => string | undefined;

export function lookupTool(
  pool: AssembledPool,
  name: string,
  gate?: DiscoveryGate,
  unavailable?: UnavailableReason,
): LookupResult {
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
  const why = unavailable?.(name);
  if (why) return { ok: false, message: `Error: ${name} cannot be called now: ${why}.` };
  const close = closestNames(name, [...pool.byName.keys()], 3);
  const hint = close.length ? ` Did you mean ${close.join(", ")}?` : "";
  return { ok: false, message: `Error: No such tool available: ${name}.${hint}` };
}
