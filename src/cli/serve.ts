/** `toolrt serve [--http HOST:PORT] [--token T | --no-auth] [--deferred MODE]`: the pool as an MCP server. */
import type { Command } from "commander";
import { isLoopback } from "../mcp/http-endpoint.ts";
import { nextStopSignal, shutdownWithin } from "../mcp/lifecycle.ts";
import { waitAtMost } from "../exec/processes/wait.ts";
import {
  DEFERRED_TOOLS_MODES,
  type DeferredToolsMode,
  serveHttp,
  type ServeOptions,
  serveStdio,
} from "../mcp/serve.ts";
import { EXIT_DEADLINE_MS, flushTelemetry } from "../telemetry/registry.ts";
import { reportFailure, UsageError } from "./errors.ts";
import { globalsOf } from "./globals.ts";
import { openDefaultSession } from "./runtime.ts";

interface ServeFlags {
  http?: string;
  token?: string;
  /** False with `--no-auth`. */
  auth: boolean;
  allowRemote?: boolean;
  deferred?: string;
  waitForServers?: string;
}

/** Stopping MCP servers takes up to a few seconds each (in parallel); past this, the exit hook kills. */
const SHUTDOWN_LIMIT_MS = 10_000;

export function register(program: Command): void {
  program
    .command("serve")
    .description("serve the tool pool as an MCP server (stdio, or Streamable HTTP with --http)")
    .option("--http <host:port>", "Streamable HTTP at http://HOST:PORT/mcp (PORT alone binds 127.0.0.1)")
    .option(
      "--token <token>",
      "with --http: require 'Authorization: Bearer <token>' (default: $TOOLRT_SERVE_TOKEN)",
    )
    .option("--no-auth", "with --http on a loopback address: serve without a token")
    .option("--allow-remote", "allow --http on a non-loopback address (a token is then required)")
    .option(
      "--deferred <mode>",
      "how deferred tools reach clients: search (listed once found with ToolSearch, callable by " +
        "exact name before) or list (all listed); default: the policy's tools.serveDeferred, else search",
    )
    .option(
      "--wait-for-servers <ms>",
      "let tools/list wait up to MS after start-up for MCP servers still connecting (for one-shot " +
        "clients that list once); default 0: answer at once, then notify list_changed as they connect",
      "0",
    )
    .action(async (opts: ServeFlags, command: Command) => {
      const globals = globalsOf(command);
      const listen = opts.http === undefined ? undefined : parseListen(opts.http);
      const token = listen ? httpToken(listen.host, opts) : stdioOnly(opts);
      const deferred = parseDeferred(opts.deferred);
      const waitMs = parseMs("--wait-for-servers", opts.waitForServers ?? "0");

      // A stop signal during start-up still shuts down in order (and stops what has started).
      const stop = nextStopSignal();
      // Servers connect in the background: the client is answered at once, and each server's
      // tools join (with a list_changed notification) as it connects.
      const { session, runtime, close } = await openDefaultSession(globals, "mcp-client", {
        searchResultStyle: "tool_reference",
        mcpStartup: "background",
      });
      const serversSettled = runtime.mcp.connectAll();
      const waitUntil = Date.now() + waitMs;
      const options: ServeOptions = {
        deferredTools: deferred ?? runtime.policy.policy.serveDeferred() ?? "search",
        beforeListingTools: () => waitAtMost(serversSettled, Math.max(0, waitUntil - Date.now())),
        searchScope: () => runtime.policy.policy.searchScope(),
      };
      try {
        if (!listen) {
          const why = await Promise.race([serveStdio(session, options), stop]);
          process.stderr.write(`toolrt serve: stopping (${why})\n`);
          return;
        }
        const endpoint = serveHttp(session, { ...listen, ...options, ...(token ? { token } : {}) });
        if (!token) {
          process.stderr.write(
            "toolrt serve: --no-auth: any process on this machine can call these tools\n",
          );
        }
        process.stderr.write(`toolrt serve: listening on ${endpoint.url}\n`);
        process.stderr.write(`toolrt serve: stopping (${await stop})\n`);
        await endpoint.stop();
      } catch (error) {
        process.exitCode = reportFailure(error, process.argv.slice(2));
      } finally {
        await shutdownWithin(SHUTDOWN_LIMIT_MS, close);
        // Nothing of ours is left to wait for, but stdin may still be open: leave now, after sending
        // the telemetry main.ts would send on the way out.
        await flushTelemetry(EXIT_DEADLINE_MS, { adoptSpool: true });
        process.exit(process.exitCode ?? 0);
      }
    });
}

/** The bearer token of `--http`: required unless `--no-auth` on loopback, and never empty. */
function httpToken(host: string, opts: ServeFlags): string | undefined {
  const given = opts.token ?? process.env.TOOLRT_SERVE_TOKEN;
  const loopback = isLoopback(host);
  if (!loopback && !opts.allowRemote) {
    throw new UsageError(`${host} is not a loopback address; add --allow-remote (a token is then required)`);
  }
  if (!opts.auth) {
    if (!loopback) throw new UsageError("--no-auth is for loopback addresses only; pass --token");
    if (opts.token !== undefined) {
      throw new UsageError("--no-auth and --token contradict each other; pick one");
    }
    return undefined;
  }
  if (given === undefined || given.trim() === "") {
    const what = given === undefined ? "a bearer token is required" : "the bearer token is empty";
    throw new UsageError(
      `${what}: set TOOLRT_SERVE_TOKEN or pass --token TOKEN` +
        (loopback ? " (or --no-auth to serve this loopback address without one)" : ""),
    );
  }
  return given;
}

function stdioOnly(opts: ServeFlags): undefined {
  if (opts.token !== undefined || !opts.auth || opts.allowRemote) {
    throw new UsageError("--token, --no-auth and --allow-remote apply to --http only");
  }
  return undefined;
}

function parseDeferred(value: string | undefined): DeferredToolsMode | undefined {
  if (value === undefined) return undefined;
  if ((DEFERRED_TOOLS_MODES as readonly string[]).includes(value)) return value as DeferredToolsMode;
  throw new UsageError(
    `--deferred expects ${DEFERRED_TOOLS_MODES.join(" or ")}, got ${JSON.stringify(value)}`,
  );
}

function parseMs(flag: string, value: string): number {
  const ms = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(ms)) {
    throw new UsageError(`${flag} expects a number of milliseconds, got ${JSON.stringify(value)}`);
  }
  return ms;
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
