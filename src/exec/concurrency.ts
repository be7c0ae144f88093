/** How many concurrency-safe calls may run at once: 10, or TOOLRT_MAX_TOOL_USE_CONCURRENCY. */
import type { AssembledPool } from "../pool/assemble.ts";
import type { ToolCall } from "./types.ts";

const DEFAULT_MAX_CONCURRENCY = 10;

export function maxToolConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number.parseInt(env.TOOLRT_MAX_TOOL_USE_CONCURRENCY ?? "", 10);
  return Number.isInteger(value) && value >= 1 ? value : DEFAULT_MAX_CONCURRENCY;
}

/**
 * A call may run beside others only if its tool says so for this input. Unknown tools, inputs that
 * do not parse, and tools that throw when asked are unsafe: they run alone.
 */
export function isCallConcurrencySafe(pool: AssembledPool, call: ToolCall): boolean {
  const tool = pool.byName.get(call.name);
  if (!tool) return false;
  const parsed = tool.inputSchema.safeParse(call.input);
  if (!parsed.success) return false;
  try {
    return tool.isConcurrencySafe(parsed.data) === true;
  } catch {
    return false;
  }
}
