/** Tools for the agent tests, built through the real buildTool(). */
import { z } from "zod";
import { buildTool } from "../../src/tool/build-tool.ts";
import type { AnyTool, InterruptBehavior } from "../../src/tool/types.ts";

export function echoTool(name = "Echo", options: { readOnly?: boolean; safe?: boolean } = {}): AnyTool {
  return buildTool({
    name,
    description: `${name} returns its input`,
    prompt: () => `${name} returns its value.`,
    inputSchema: z.object({ value: z.string() }),
    call: async (input) => ({ data: `${name}:${input.value}` }),
    isReadOnly: () => options.readOnly ?? true,
    isConcurrencySafe: () => options.safe ?? true,
  });
}

/** A tool that waits on `until` (or on its abort signal) and reports when it starts. */
export function waitingTool(
  name: string,
  options: { until?: Promise<unknown>; onStart?: () => void; interrupt?: InterruptBehavior },
): AnyTool {
  return buildTool({
    name,
    description: `${name} waits`,
    prompt: () => `${name} waits.`,
    inputSchema: z.object({}),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    interruptBehavior: () => options.interrupt ?? "block",
    call: async (_input, ctx) => {
      options.onStart?.();
      await new Promise<void>((resolve) => {
        options.until?.then(() => resolve());
        ctx.abortSignal.addEventListener("abort", () => resolve(), { once: true });
      });
      return { data: `${name} finished` };
    },
  });
}

/** Client-side search stand-in (ToolSearch is built on another branch): answers with tool references. */
export function fakeSearchTool(found: string[]): AnyTool {
  return buildTool({
    name: "ToolSearch",
    description: "Finds deferred tools",
    prompt: () => "Search for deferred tools.",
    inputSchema: z.object({ query: z.string() }),
    isReadOnly: () => true,
    call: async () => ({ data: found }),
    toContent: (names: string[]) =>
      names.map((tool_name) => ({ type: "tool_reference" as const, tool_name })),
  });
}

export function deferredTool(name: string): AnyTool {
  return buildTool({
    name,
    origin: { kind: "mcp", server: name.split("__")[1] ?? "x", originalName: name.split("__")[2] ?? name },
    description: `${name} (deferred)`,
    prompt: () => `${name} creates things.`,
    inputSchema: z.object({ title: z.string() }),
    isReadOnly: () => true,
    shouldDefer: true,
    call: async (input) => ({ data: `created ${input.title}` }),
  });
}
