/** Builds the client transport for a server config, keeping the tail of a stdio server's stderr. */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConfig } from "./config.ts";
import { ProcessGroupStdioTransport } from "./stdio-transport.ts";

export interface OpenedTransport {
  transport: Transport;
  /** The last lines a stdio server wrote to stderr: often the reason it failed. */
  stderrTail(): string;
}

/** `authProvider`: OAuth for a remote server (stored tokens, refreshed when they expire). */
export function openTransport(
  config: McpServerConfig,
  workspace: string,
  authProvider?: OAuthClientProvider,
): OpenedTransport {
  switch (config.type) {
    case "stdio": {
      const transport = new ProcessGroupStdioTransport({
        command: config.command,
        args: config.args,
        env: { ...getDefaultEnvironment(), ...config.env },
        cwd: config.cwd ?? workspace,
      });
      return { transport, stderrTail: () => transport.stderrTail() };
    }
    case "http": {
      const init = { requestInit: { headers: config.headers }, ...(authProvider ? { authProvider } : {}) };
      return {
        transport: new StreamableHTTPClientTransport(new URL(config.url), init),
        stderrTail: () => "",
      };
    }
    case "ws":
      return { transport: new WebSocketClientTransport(new URL(config.url)), stderrTail: () => "" };
    case "sse": {
      const init = { requestInit: { headers: config.headers }, ...(authProvider ? { authProvider } : {}) };
      return { transport: new SSEClientTransport(new URL(config.url), init), stderrTail: () => "" };
    }
  }
}
