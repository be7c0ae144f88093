/** What went wrong talking to an MCP server, sorted by what the connection does about it. */
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { LoginRequiredError } from "./oauth/provider.ts";
import { errorMessage } from "../tool/errors.ts";

export type FaultKind =
  /** The server did not answer in time; the connection itself may be fine. */
  | "timeout"
  /** HTTP 404 with JSON-RPC -32001: the server forgot our session; initialize again. */
  | "session-expired"
  /** HTTP 401: the server wants credentials. */
  | "needs-auth"
  /** The process died or the network went away: reconnect with backoff. */
  | "connection-lost"
  /** The server answered with an error of its own. */
  | "server-error";

const REQUEST_TIMEOUT = -32001;
const CONNECTION_CLOSED = -32000;

export function classifyFault(error: unknown): FaultKind {
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof McpError) {
    if (error.code === REQUEST_TIMEOUT) return "timeout";
    if (error.code === CONNECTION_CLOSED) return "connection-lost";
    return "server-error";
  }
  if (error instanceof TimeoutError) return "timeout";
  // An answer that is not JSON: the server is broken, but the connection still stands.
  if (error instanceof SyntaxError) return "server-error";
  if (code === 401 || isAuthorizationFailure(error)) return "needs-auth";
  // The SDK's HTTP transports report the status as `code` and the JSON-RPC body in the message.
  if (code === 404 && errorMessage(error).includes(String(REQUEST_TIMEOUT))) return "session-expired";
  if (typeof code === "number" && code >= 400) return "server-error";
  return "connection-lost";
}

/** The SDK's OAuth client gave up (no usable tokens, a refused grant) or a login is needed. */
function isAuthorizationFailure(error: unknown): boolean {
  return error instanceof OAuthError || error instanceof UnauthorizedError ||
    error instanceof LoginRequiredError;
}

export class TimeoutError extends Error {
  override name = "TimeoutError";
}

/** Rejects with TimeoutError after `ms`, and runs `onTimeout` (to close what was being waited on). */
export async function withTimeout<T>(
  work: Promise<T>,
  ms: number,
  message: string,
  onTimeout?: () => void,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new TimeoutError(message));
    }, ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
