/** What the resource tools need from the MCP side (the manager provides it). */
import type { ReadResourceResult, Resource } from "@modelcontextprotocol/sdk/types.js";

export interface McpResourceSource {
  /** Resources of one server, or of every connected server offering resources. */
  listResources(server?: string): Promise<(Resource & { server: string })[]>;
  readResource(server: string, uri: string): Promise<ReadResourceResult>;
  /** Whether any connected server offers resources (the tools are hidden otherwise). */
  hasResourceServers(): boolean;
}
