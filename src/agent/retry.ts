/**
 * Retries with exponential backoff and jitter for 429, 5xx, 529 overloaded and dropped connections.
 * The SDK's own retries are off (maxRetries 0) so that each retry is announced as an `api_retry`
 * line, as Claude Code does.
 */
import { type ApiFailure, describeApiFailure } from "./api-errors.ts";

export interface RetryPolicy {
  maxRetries: number;
  /** The first delay; each retry doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Retries when nothing answers at the address (refused, unknown host): a wrong URL stays wrong. */
  maxUnreachableRetries?: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 8,
  baseDelayMs: 500,
  maxDelayMs: 32_000,
  maxUnreachableRetries: 2,
};

export interface RetryNotice {
  attempt: number;
  maxRetries: number;
  delayMs: number;
  failure: ApiFailure;
}

/** The delay before retry number `attempt` (1-based): the server's retry-after wins when it gave one. */
function retryDelayMs(attempt: number, failure: ApiFailure, policy: RetryPolicy): number {
  if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, policy.maxDelayMs);
  const exponential = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  // Up to 25 % jitter, so many clients overloaded together do not return together.
  return Math.round(exponential * (1 - Math.random() * 0.25));
}

export class ApiRequestError extends Error {
  constructor(readonly failure: ApiFailure, readonly original: unknown) {
    super(failure.message);
    this.name = "ApiRequestError";
  }
}

/**
 * Runs `attempt` until it succeeds, fails for a reason retrying cannot fix, or the retries run out.
 * `canRetry` lets the caller refuse a retry after work it cannot repeat has started.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  options: {
    policy: RetryPolicy;
    signal?: AbortSignal;
    onRetry: (notice: RetryNotice) => void;
    canRetry?: () => boolean;
  },
): Promise<T> {
  for (let retry = 1;; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const failure = describeApiFailure(error);
      const maxRetries = failure.unreachable
        ? Math.min(
          options.policy.maxUnreachableRetries ?? options.policy.maxRetries,
          options.policy.maxRetries,
        )
        : options.policy.maxRetries;
      const allowed = failure.retryable && retry <= maxRetries &&
        (options.canRetry?.() ?? true);
      if (!allowed) throw new ApiRequestError(failure, error);
      const delayMs = retryDelayMs(retry, failure, options.policy);
      options.onRetry({ attempt: retry, maxRetries, delayMs, failure });
      await sleep(delayMs, options.signal);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
