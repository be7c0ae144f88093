/**
 * Tool catalogs in the shape of `shared/data/mcp-catalog.json` (`{servers: [{name, tools}]}`):
 * every definition becomes a deferred MCP tool `mcp__<server>__<tool>` that can be searched but
 * not called (there is no connection behind it).
 */
import { z } from "zod";
import { buildMcpDefinitionTool, type McpToolDefinition } from "../mcp/definition-tool.ts";
import type { AnyTool } from "../tool/types.ts";

const catalogSchema = z.object({
  servers: z.array(z.object({
    name: z.string().min(1),
    tools: z.array(z.object({
      name: z.string().min(1),
      description: z.string().optional(),
      inputSchema: z.record(z.string(), z.unknown()),
    })),
  })),
});

export type Catalog = z.infer<typeof catalogSchema>;

/** Parses catalog JSON text; the error names the first offending path. */
export function parseCatalog(text: string): Catalog {
  const parsed = catalogSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`not a tool catalog: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return parsed.data;
}

export function catalogTools(catalog: Catalog): AnyTool[] {
  return catalog.servers.flatMap((server) =>
    server.tools.map((definition) =>
      buildMcpDefinitionTool(server.name, definition as McpToolDefinition, async () => {
        throw new Error(`${server.name} is a catalog entry, not a connected MCP server`);
      })
    )
  );
}
