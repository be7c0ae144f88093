/**
 * A Streamable HTTP endpoint for MCP servers on Bun.serve: one server instance and transport per
 * client session, an optional bearer token, and Host checks against DNS rebinding when bound to
 * loopback. An unknown session id gets 404 with JSON-RPC -32001, so the client initializes again.
 */
import { timingSafeEqual } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";

const MCP_PATH = "/mcp";

export interface HttpEndpointOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Requests must carry `Authorization: Bearer <token>`; undefined serves without authentication. */
  token?: string;
  /** A fresh server for each client session. */
  createServer: () => Server | { connect: Server["connect"] };
  /** Answers some requests itself before the MCP transport sees them (fixtures use it to misbehave). */
  intercept?: (body: unknown) => Response | undefined;
}

export interface HttpEndpoint {
  url: string;
  /** Forgets every session: the next request with an old session id is answered 404 / -32001. */
  dropSessions(): void;
  stop(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || host.startsWith("127.");
}

const REALM = 'Bearer realm="toolrt"';
const TOKEN_ORIGIN = "the token `toolrt serve` was started with (--token or $TOOLRT_SERVE_TOKEN)";

/**
 * The 401 for a request without the right bearer token, saying what is missing (RFC 6750: no error
 * code when no credentials came, `invalid_request` for another scheme, `invalid_token` for a
 * wrong token); undefined when the token is right.
 */
function authRefusal(request: Request, expected: Buffer): Response | undefined {
  const header = request.headers.get("authorization")?.trim() ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (bearer !== undefined) {
    const given = Buffer.from(bearer);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return undefined;
  }
  const [error, message] = header === ""
    ? [
      undefined,
      `a bearer token is required: send the header 'Authorization: Bearer <token>' with ${TOKEN_ORIGIN}`,
    ]
    : bearer === undefined
    ? ["invalid_request", `the Authorization header must be 'Bearer <token>' with ${TOKEN_ORIGIN}`]
    : ["invalid_token", `the bearer token is not the one this server accepts: use ${TOKEN_ORIGIN}`];
  const challenge = error
    ? `${REALM}, error="${error}", error_description="${message.replace(/["\\]/g, "'")}"`
    : REALM;
  return new Response(`${message}\n`, {
    status: 401,
    headers: { "www-authenticate": challenge, "content-type": "text/plain; charset=utf-8" },
  });
}

export function startHttpEndpoint(options: HttpEndpointOptions): HttpEndpoint {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  if (options.token !== undefined && options.token.trim() === "") {
    throw new Error(
      "an empty bearer token would let anyone in; give a token, or none at all to serve without one",
    );
  }
  const expected = options.token === undefined ? undefined : Buffer.from(options.token);
  const loopback = isLoopback(options.host);

  const refusal = (request: Request) => (expected ? authRefusal(request, expected) : undefined);

  const server = Bun.serve({
    hostname: options.host,
    port: options.port,
    // Streams stay open while a call runs or the client listens for notifications.
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname !== MCP_PATH) {
        return new Response("not found; the MCP endpoint is /mcp", { status: 404 });
      }
      const refused = refusal(request);
      if (refused) return refused;
      if (loopback && !LOOPBACK_HOSTS.has(url.hostname)) {
        return new Response("forbidden host", { status: 403 });
      }
      const body = request.method === "POST" ? await request.json().catch(() => undefined) : undefined;
      const intercepted = options.intercept?.(body);
      if (intercepted) return intercepted;

      const sessionId = request.headers.get("mcp-session-id");
      let transport = sessionId ? sessions.get(sessionId) : undefined;
      if (sessionId && !transport) {
        const error = { jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } };
        return Response.json(error, { status: 404 });
      }
      if (!transport) {
        const fresh = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => crypto.randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, fresh),
          onsessionclosed: (id) => void sessions.delete(id),
        });
        await options.createServer().connect(fresh);
        transport = fresh;
      }
      return transport.handleRequest(request, body === undefined ? {} : { parsedBody: body });
    },
  });

  const host = options.host.includes(":") && !options.host.startsWith("[")
    ? `[${options.host}]`
    : options.host;
  return {
    url: `http://${host}:${server.port}${MCP_PATH}`,
    dropSessions: () => sessions.clear(),
    stop: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => {})));
      sessions.clear();
      await server.stop(true);
    },
  };
}
