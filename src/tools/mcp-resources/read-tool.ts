/** ReadMcpResource: one resource of one MCP server, as text (or an image). */
import { z } from "zod";
import { mcpBlockToContent } from "../../mcp/content.ts";
import { buildTool } from "../../tool/build-tool.ts";
import type { ContentBlock } from "../../tool/messages.ts";
import type { McpResourceSource } from "./source.ts";

const input = z.strictObject({
  server: z.string().describe("The MCP server's name"),
  uri: z.string().describe("The resource URI, as ListMcpResources gave it"),
});

export function readMcpResourceTool(source: McpResourceSource) {
  return buildTool<z.infer<typeof input>, ContentBlock[]>({
    name: "ReadMcpResource",
    description: "Reads one resource of a connected MCP server.",
    prompt: () => "Reads a resource by server name and URI (find them with ListMcpResources).",
    searchHint: "mcp resource read fetch uri",
    category: "read",
    inputSchema: input,
    call: async ({ server, uri }) => {
      const result = await source.readResource(server, uri);
      return { data: result.contents.map((resource) => mcpBlockToContent({ type: "resource", resource })) };
    },
    toContent: (blocks) => blocks,
    isEnabled: () => source.hasResourceServers(),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    shouldDefer: true,
  });
}
