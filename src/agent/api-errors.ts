/**
 * What went wrong with a Messages API request, in words a person can act on, and whether trying
 * again can help (rate limits, overload, server errors, dropped connections).
 */
import Anthropic from "@anthropic-ai/sdk";
import { errorMessage } from "../tool/errors.ts";

export interface ApiFailure {
  retryable: boolean;
  /** HTTP status, or null for a connection failure or an error event inside the stream. */
  status: number | null;
  message: string;
  /** The server's `retry-after`, in milliseconds, when it sent one. */
  retryAfterMs?: number;
  /** Nothing answers at the address (refused, unknown host): worth a retry or two, not a minute of them. */
  unreachable?: true;
}

/** Connection failures that say nothing listens at the base URL, or that its host does not resolve. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "unknown host",
  EAI_AGAIN: "the host name could not be resolved",
  EHOSTUNREACH: "no route to the host",
  ENETUNREACH: "the network is unreachable",
};

const RETRYABLE_TYPES = new Set(["overloaded_error", "rate_limit_error", "api_error"]);

export function describeApiFailure(error: unknown): ApiFailure {
  if (error instanceof Anthropic.APIConnectionError) {
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    const why = typeof code === "string" ? UNREACHABLE[code] : undefined;
    if (why) {
      return {
        retryable: true,
        unreachable: true,
        status: null,
        message:
          `could not reach ${baseUrlName()}: ${why} (${code}). Check ANTHROPIC_BASE_URL and that the ` +
          "server is running.",
      };
    }
    return { retryable: true, status: null, message: `could not reach ${baseUrlName()}: ${error.message}` };
  }
  if (!(error instanceof Anthropic.APIError)) {
    return {
      retryable: false,
      status: null,
      message: errorMessage(error),
    };
  }
  const status = error.status ?? null;
  const detail = error.apiMessage ?? error.message;
  if (status === 401) {
    return {
      retryable: false,
      status,
      message: `authentication failed (401: ${detail}). Check ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) ` +
        `for ${baseUrlName()}.`,
    };
  }
  if (status === 403) {
    return {
      retryable: false,
      status,
      message: `the API key may not use this model or endpoint (403: ${detail}).`,
    };
  }
  const retryable = status === null
    ? RETRYABLE_TYPES.has(error.type ?? "")
    : status === 408 || status === 409 || status === 429 || status >= 500;
  return { retryable, status, message: status ? `${status} ${detail}` : detail, ...retryAfter(error) };
}

function retryAfter(error: InstanceType<typeof Anthropic.APIError>): { retryAfterMs?: number } {
  const value = error.headers?.get("retry-after");
  const seconds = value === null || value === undefined ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? { retryAfterMs: seconds * 1000 } : {};
}

function baseUrlName(): string {
  return process.env.ANTHROPIC_BASE_URL
    ? `the gateway at ${process.env.ANTHROPIC_BASE_URL}`
    : "the Anthropic API (https://api.anthropic.com)";
}
