/**
 * One GET with hard limits: a timeout, a byte cap (the body is read as a stream and cut), and
 * redirects followed only within the same host and never from https down to http. A redirect
 * elsewhere is reported, not followed, so the new host passes the permission check on its own.
 */
import { ToolError } from "../shared/errors.ts";

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export type FetchOutcome =
  | {
    kind: "page";
    finalUrl: string;
    status: number;
    contentType: string;
    body: Uint8Array;
    /** The body was longer than `maxBytes` and was cut there. */
    cut: boolean;
  }
  | { kind: "redirect"; status: number; location: string };

const USER_AGENT = "toolrt-webfetch/0.1";

export async function fetchPage(
  url: string,
  limits: FetchLimits,
  signal: AbortSignal,
): Promise<FetchOutcome> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const combined = AbortSignal.any([signal, deadline]);
  const fail = (target: string, error: unknown) => fetchFailure(target, error, deadline, limits.timeoutMs);
  let current = new URL(url);
  for (let hops = 0;; hops++) {
    const response = await get(current, combined).catch((error) => Promise.reject(fail(current.href, error)));
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      const next = new URL(location, current);
      if (!isSafeRedirect(current, next)) {
        return { kind: "redirect", status: response.status, location: next.href };
      }
      if (hops >= limits.maxRedirects) {
        throw new ToolError(`Too many redirects (more than ${limits.maxRedirects}) from ${url}.`);
      }
      current = next;
      continue;
    }
    const { body, cut } = await readCapped(response, limits.maxBytes).catch((error) =>
      Promise.reject(fail(current.href, error))
    );
    return {
      kind: "page",
      finalUrl: current.href,
      status: response.status,
      contentType: response.headers.get("content-type") ?? "",
      body,
      cut,
    };
  }
}

/** Same host (a `www.` prefix aside), and no step down from https to http. */
function isSafeRedirect(from: URL, to: URL): boolean {
  const host = (url: URL) => url.hostname.replace(/^www\./, "");
  if (to.protocol !== "http:" && to.protocol !== "https:") return false;
  if (from.protocol === "https:" && to.protocol === "http:") return false;
  return host(from) === host(to) && !to.username && !to.password;
}

function get(url: URL, signal: AbortSignal): Promise<Response> {
  return fetch(url, {
    redirect: "manual",
    signal,
    headers: { "user-agent": USER_AGENT, accept: "text/html, text/markdown, text/plain, */*;q=0.8" },
  });
}

async function readCapped(response: Response, maxBytes: number): Promise<{ body: Uint8Array; cut: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  if (response.body) {
    const reader = response.body.getReader();
    try {
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        const room = maxBytes - size;
        if (value.length > room) {
          chunks.push(value.subarray(0, room));
          size += room;
          cut = true;
          break;
        }
        chunks.push(value);
        size += value.length;
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return { body, cut };
}

function fetchFailure(url: string, error: unknown, deadline: AbortSignal, timeoutMs: number): Error {
  if (deadline.aborted && (deadline.reason as Error | undefined)?.name === "TimeoutError") {
    return new ToolError(`Fetching ${url} timed out after ${timeoutMs / 1000} s.`);
  }
  if ((error as Error | undefined)?.name === "AbortError") {
    return new ToolError(`Fetching ${url} was interrupted.`);
  }
  return new ToolError(`Could not fetch ${url}: ${(error as Error | undefined)?.message ?? String(error)}`);
}
