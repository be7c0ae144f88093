/** `toolrt serve [--http HOST:PORT] [--token T]`: the policy-governed pool as an MCP server. */
import type { Command } from "commander";
import { isLoopback } from "../mcp/http-endpoint.ts";
import { serveHttp, serveStdio } from "../mcp/serve.ts";
import { UsageError } from "./errors.ts";
import { globalsOf } from "./globals.ts";
import { openDefaultSession } from "./runtime.ts";

interface ServeOptions {
  http?: string;
  token?: string;
  allowRemote?: boolean;
}

export function register(program: Command): void {
  program
    .command("serve")
    .description("serve the tool pool as an MCP server (stdio, or Streamable HTTP with --http)")
    .option("--http <host:port>", "Streamable HTTP at http://HOST:PORT/mcp (PORT alone binds 127.0.0.1)")
    .option("--token <token>", "require 'Authorization: Bearer <token>' (default: $TOOLRT_SERVE_TOKEN)")
    .option("--allow-remote", "allow --http on a non-loopback address (a token is then required)")
    .action(async (opts: ServeOptions, command: Command) => {
      const globals = globalsOf(command);
      const listen = opts.http === undefined ? undefined : parseListen(opts.http);
      const token = opts.token ?? process.env.TOOLRT_SERVE_TOKEN;
      if (listen && !isLoopback(listen.host)) {
        if (!opts.allowRemote) {
          throw new UsageError(`${listen.host} is not a loopback address; add --allow-remote`);
        }
        if (!token) {
          throw new UsageError("serving off loopback needs a bearer token (--token or $TOOLRT_SERVE_TOKEN)");
        }
      }

      // One-shot clients list tools right after initializing, so MCP servers connect first.
      const { session, close: shutdown } = await openDefaultSession(globals, "mcp-client", {
        searchResultStyle: "tool_reference",
      });

      if (!listen) {
        await serveStdio(session);
        await shutdown();
        return;
      }
      const endpoint = serveHttp(session, { ...listen, ...(token ? { token } : {}) });
      process.stderr.write(`toolrt serve: listening on ${endpoint.url}\n`);
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      await endpoint.stop();
      await shutdown();
    });
}

/** `8080`, `:8080`, `127.0.0.1:8080`, `[::1]:8080`. */
export function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]*):)?(\d+)$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || port > 65535) {
    throw new UsageError(`--http expects HOST:PORT or PORT, got ${JSON.stringify(value)}`);
  }
  const host = (match[1] || "127.0.0.1").replace(/^\[(.*)\]$/, "$1");
  return { host, port };
}
