/** Small tools for pool and pipeline tests, built through the real buildTool(). */
import { z } from "zod";
import { buildTool } from "../../src/tool/build-tool.ts";
import type { AnyTool, ToolCategory, ToolOrigin } from "../../src/tool/types.ts";

export interface FakeToolOptions {
  origin?: ToolOrigin;
  category?: ToolCategory;
  aliases?: string[];
  readOnly?: boolean;
  enabled?: boolean;
  shouldDefer?: boolean;
  alwaysLoad?: boolean;
}

export function fakeTool(name: string, options: FakeToolOptions = {}): AnyTool {
  return buildTool({
    name,
    description: `${name} does one thing`,
    prompt: () => `Use ${name} for testing.`,
    inputSchema: z.object({ value: z.string().optional() }),
    call: async (input) => ({ data: `${name}:${input.value ?? ""}` }),
    ...(options.origin ? { origin: options.origin } : {}),
    ...(options.category ? { category: options.category } : {}),
    ...(options.aliases ? { aliases: options.aliases } : {}),
    ...(options.readOnly !== undefined ? { isReadOnly: () => options.readOnly! } : {}),
    ...(options.enabled !== undefined ? { isEnabled: () => options.enabled! } : {}),
    ...(options.shouldDefer !== undefined ? { shouldDefer: options.shouldDefer } : {}),
    ...(options.alwaysLoad !== undefined ? { alwaysLoad: options.alwaysLoad } : {}),
  });
}

export function mcpTool(server: string, tool: string): AnyTool {
  return fakeTool(`mcp__${server}__${tool}`, {
    origin: { kind: "mcp", server, originalName: tool },
    shouldDefer: true,
  });
}
