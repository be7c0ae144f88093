/**
 * OAuth state of remote MCP servers, one file per server in `<state dir>/mcp-oauth/`: the client
 * registration, the tokens, the PKCE verifier of a login in progress and the discovered metadata.
 * Files are 0600 in a 0700 directory, written whole through a temporary file. A file is keyed by
 * the server's name and URL, so a server whose URL changes starts from nothing.
 */
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

export interface StoredOAuth {
  serverUrl: string;
  /** The redirect URI the client was registered with (a loopback listener of `toolrt mcp login`). */
  redirectUrl?: string;
  clientInformation?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the tokens were saved (ms since the epoch), to tell their age. */
  savedAt?: number;
  codeVerifier?: string;
  discoveryState?: OAuthDiscoveryState;
}

export class OAuthStore {
  readonly file: string;
  readonly #serverUrl: string;

  constructor(stateDir: string, server: string, serverUrl: string) {
    const key = createHash("sha256").update(serverUrl).digest("hex").slice(0, 12);
    this.file = join(stateDir, "mcp-oauth", `${server.replace(/[^A-Za-z0-9_-]/g, "_")}-${key}.json`);
    this.#serverUrl = serverUrl;
  }

  read(): StoredOAuth {
    try {
      const stored = JSON.parse(readFileSync(this.file, "utf8")) as StoredOAuth;
      if (stored.serverUrl === this.#serverUrl) return stored;
    } catch {
      // Missing or unreadable: nothing stored, which means "log in".
    }
    return { serverUrl: this.#serverUrl };
  }

  update(change: (stored: StoredOAuth) => StoredOAuth): void {
    const next = change(this.read());
    const dir = dirname(this.file);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.file);
  }

  remove(): boolean {
    try {
      rmSync(this.file);
      return true;
    } catch {
      return false;
    }
  }
}
