/**
 * Pool assembly: built-ins sorted as a contiguous prefix, then external tools (MCP, plugin, remote)
 * sorted, deduplicated by name with built-ins winning. The stable prefix keeps the provider's
 * prompt cache valid when external tools come and go.
 */
import type { AnyTool, ToolOrigin } from "../tool/types.ts";
import { decideDeferral, type DeferralDecision, type DeferralOverrides } from "./deferral.ts";
import { filterTools, type HiddenTool, type PoolMode, type SourcedRule } from "./filter.ts";

export interface PoolOptions {
  mode: PoolMode;
  /** Deny rules from every policy source; the blanket ones remove tools before exposure. */
  denyRules: readonly SourcedRule[];
  /** Per-tool `alwaysLoad` / `defer` lists from policy files. */
  deferral?: DeferralOverrides;
}

/** Two tools that wanted the same name; the first one kept it. */
export interface NameClash {
  name: string;
  kept: ToolOrigin;
  dropped: ToolOrigin;
}

export interface AssembledPool {
  /** In the order the model sees them. */
  tools: AnyTool[];
  /** How many of `tools`, from the start, are built-ins. */
  builtinCount: number;
  clashes: NameClash[];
  hidden: HiddenTool[];
  /** Every visible tool by name and by alias (a name wins over another tool's alias). */
  byName: ReadonlyMap<string, AnyTool>;
  /** Whether each visible tool waits behind ToolSearch, and why (by tool name). */
  deferral: ReadonlyMap<string, DeferralDecision>;
}

/** Is this visible tool deferred in this pool? */
export function isDeferredIn(pool: AssembledPool, tool: AnyTool): boolean {
  return pool.deferral.get(tool.name)?.deferred === true;
}

const byName = (a: AnyTool, b: AnyTool) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function assembleToolPool(
  builtins: readonly AnyTool[],
  external: readonly AnyTool[],
  options: PoolOptions,
): AssembledPool {
  const keptBuiltins = filterTools(builtins, options.mode, options.denyRules);
  const keptExternal = filterTools(external, options.mode, options.denyRules);
  const ordered = [...keptBuiltins.kept].sort(byName).concat([...keptExternal.kept].sort(byName));

  // A name also clashes with a built-in's alias: lookup by that name would be ambiguous.
  const owners = new Map<string, AnyTool>();
  const tools: AnyTool[] = [];
  const clashes: NameClash[] = [];
  for (const tool of ordered) {
    const owner = owners.get(tool.name);
    if (owner) {
      clashes.push({ name: tool.name, kept: owner.origin, dropped: tool.origin });
      continue;
    }
    tools.push(tool);
    owners.set(tool.name, tool);
    for (const alias of tool.aliases) if (!owners.has(alias)) owners.set(alias, tool);
  }
  const builtinCount = tools.filter((t) => t.origin.kind === "builtin").length;
  const hidden = [...keptBuiltins.hidden, ...keptExternal.hidden];
  const deferral = new Map(tools.map((tool) => [tool.name, decideDeferral(tool, options.deferral)]));
  return { tools, builtinCount, clashes, hidden, byName: owners, deferral };
}
