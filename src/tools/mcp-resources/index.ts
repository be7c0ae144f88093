/** The MCP resource tools, given to the pool with the built-ins; hidden until a server offers resources. */
import type { AnyTool } from "../../tool/types.ts";
import { listMcpResourcesTool } from "./list-tool.ts";
import { readMcpResourceTool } from "./read-tool.ts";
import type { McpResourceSource } from "./source.ts";

export type { McpResourceSource } from "./source.ts";

export function mcpResourceTools(source: McpResourceSource): AnyTool[] {
  return [listMcpResourcesTool(source), readMcpResourceTool(source)];
}
