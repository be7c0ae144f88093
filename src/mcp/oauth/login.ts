/**
 * `toolrt mcp login`: the OAuth authorization code flow with PKCE for one remote MCP server, per
 * the MCP authorization spec. A listener on 127.0.0.1 receives the browser's redirect; the person
 * is given the authorization URL to open. The SDK's `auth()` does discovery, dynamic client
 * registration, PKCE and the code exchange; the tokens land in the OAuth store.
 */
import { randomBytes } from "node:crypto";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { withTimeout } from "../errors.ts";
import { StoredOAuthProvider } from "./provider.ts";
import { OAuthStore } from "./store.ts";

const CALLBACK_PATH = "/callback";
const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60 * 1000;

export interface LoginOptions {
  stateDir: string;
  server: string;
  url: string;
  /** The listener's port on 127.0.0.1 (default 0: any free port). */
  port?: number;
  /** Told the URL the person must open, and where the redirect will land. */
  onAuthorizationUrl(url: string, redirectUrl: string): void;
  /**
   * The redirect URL pasted by the person, for when their browser cannot reach this machine's
   * loopback (a remote shell): its `code` and `state` are used as if the redirect had arrived.
   */
  pastedRedirect?: Promise<string>;
  timeoutMs?: number;
}

/** Logs in; resolves with the file the tokens are kept in. */
export async function loginToServer(options: LoginOptions): Promise<string> {
  const store = new OAuthStore(options.stateDir, options.server, options.url);
  const state = randomBytes(16).toString("base64url");
  const callback = new CallbackListener(state, options.port ?? 0);
  try {
    const provider = new StoredOAuthProvider(options.server, store, {
      redirectUrl: callback.url,
      state,
      onAuthorizationUrl: (url) => options.onAuthorizationUrl(url.href, callback.url),
    });
    const first = await auth(provider, { serverUrl: options.url });
    if (first === "REDIRECT") {
      const pasted = options.pastedRedirect?.then((text) => codeOfRedirect(text, state));
      const timeoutMs = options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS;
      const code = await withTimeout(
        Promise.race([callback.code, ...(pasted ? [pasted] : [])]),
        timeoutMs,
        `no authorization arrived within ${Math.round(timeoutMs / 1000)} s; run the login again`,
      );
      const second = await auth(provider, { serverUrl: options.url, authorizationCode: code });
      if (second !== "AUTHORIZED") throw new Error("the authorization server did not issue tokens");
    }
    store.update((stored) => {
      const { codeVerifier: _, ...rest } = stored;
      return rest;
    });
    return store.file;
  } finally {
    callback.stop();
  }
}

/** The `code` of a redirect URL, once its `state` is the one this login sent. */
export function codeOfRedirect(redirect: string, state: string): string {
  let url: URL;
  try {
    url = new URL(redirect.trim());
  } catch {
    throw new Error(
      `not a URL: ${JSON.stringify(redirect.trim())}; paste the whole address the browser shows`,
    );
  }
  const error = url.searchParams.get("error");
  if (error) {
    const description = url.searchParams.get("error_description");
    throw new Error(`the authorization server refused: ${error}${description ? ` (${description})` : ""}`);
  }
  if (url.searchParams.get("state") !== state) {
    throw new Error(
      "the redirect's state does not match this login (a stale or forged redirect); start again",
    );
  }
  const code = url.searchParams.get("code");
  if (!code) throw new Error("the redirect carries no authorization code");
  return code;
}

/** The loopback listener: one redirect, checked against the login's state. */
class CallbackListener {
  readonly url: string;
  readonly code: Promise<string>;
  readonly #server: ReturnType<typeof Bun.serve>;

  constructor(state: string, port: number) {
    let settle!: { resolve(code: string): void; reject(error: Error): void };
    this.code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
    // Rejections are read when awaited; until then an early refusal must not crash the process.
    this.code.catch(() => {});
    this.#server = Bun.serve({
      hostname: "127.0.0.1",
      port,
      fetch: (request) => {
        const url = new URL(request.url);
        if (url.pathname !== CALLBACK_PATH) return new Response("not found", { status: 404 });
        try {
          settle.resolve(codeOfRedirect(request.url, state));
          return page("toolrt is logged in. You can close this tab.");
        } catch (error) {
          settle.reject(error as Error);
          return page(`toolrt could not log in: ${(error as Error).message}`, 400);
        }
      },
    });
    this.url = `http://127.0.0.1:${this.#server.port}${CALLBACK_PATH}`;
  }

  stop(): void {
    void this.#server.stop(true);
  }
}

function page(text: string, status = 200): Response {
  const escaped = text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return new Response(`<!doctype html><title>toolrt</title><p>${escaped}</p>\n`, {
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
  });
}
