/**
 * The tools a session has found through ToolSearch. Discovery outlives pool refreshes: a found
 * tool stays callable when its server reconnects, and if it has vanished the call fails with an
 * error naming the server instead of a bare "no such tool".
 */
import type { AnyTool, ToolOrigin } from "../tool/types.ts";

export type ToolLookup = (name: string) => AnyTool | undefined;

export type CallableResolution =
  | { ok: true; tool: AnyTool }
  | { ok: false; message: string };

export class DiscoveredTools {
  /** Name → where the tool came from when it was found (kept for the error when it vanishes). */
  readonly #found = new Map<string, ToolOrigin>();

  add(tools: Iterable<AnyTool>): void {
    for (const tool of tools) this.#found.set(tool.name, tool.origin);
  }

  has(name: string): boolean {
    return this.#found.has(name);
  }

  get names(): string[] {
    return [...this.#found.keys()];
  }

  /**
   * The tool a model's call refers to, if the model may call it now: a loaded tool, or a deferred
   * one it has discovered. `isDeferred` is the pool's deferral decision.
   */
  resolve(name: string, lookup: ToolLookup, isDeferred: (tool: AnyTool) => boolean): CallableResolution {
    const tool = lookup(name);
    const origin = this.#found.get(name);
    if (tool && (!isDeferred(tool) || origin)) return { ok: true, tool };
    if (!tool && origin) return { ok: false, message: vanishedMessage(name, origin) };
    // Claude Code's wording, which models already know how to recover from.
    return { ok: false, message: `No such tool available: ${name}` };
  }
}

function vanishedMessage(name: string, origin: ToolOrigin): string {
  const source = origin.server
    ? `${origin.kind === "mcp" ? "MCP server" : origin.kind} "${origin.server}"`
    : "its source";
  return `Tool ${name} was found earlier but is no longer available: ${source} no longer provides it ` +
    `(disconnected, or the tool was removed). Use ToolSearch to look for an alternative.`;
}
