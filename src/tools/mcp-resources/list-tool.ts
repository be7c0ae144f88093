/** ListMcpResources: the resources connected MCP servers offer, as JSON. */
import { z } from "zod";
import { buildTool } from "../../tool/build-tool.ts";
import type { McpResourceSource } from "./source.ts";

const input = z.strictObject({
  server: z.string().optional().describe("Only this server's resources (default: every server)"),
});

export function listMcpResourcesTool(source: McpResourceSource) {
  return buildTool({
    name: "ListMcpResources",
    description: "Lists the resources offered by connected MCP servers.",
    prompt: () =>
      "Lists resources (files, records, documents) that connected MCP servers offer, with their server, " +
      "uri, name and mimeType. Read one with ReadMcpResource.",
    searchHint: "mcp resources list servers",
    category: "read",
    inputSchema: input,
    call: async ({ server }) => ({ data: await source.listResources(server) }),
    isEnabled: () => source.hasResourceServers(),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    shouldDefer: true,
  });
}
