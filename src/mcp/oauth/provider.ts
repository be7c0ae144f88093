/**
 * The SDK's OAuthClientProvider over the OAuth store: the SDK's `auth()` does discovery (protected
 * resource metadata, then authorization server metadata), dynamic client registration, PKCE and
 * token refresh; this class only keeps what it is handed. Two uses: `toolrt mcp login` (a loopback
 * redirect listener receives the code), and connections, which present and refresh stored tokens
 * but never start a login themselves — they fail with "run toolrt mcp login".
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import packageJson from "../../../package.json" with { type: "json" };
import type { OAuthStore, StoredOAuth } from "./store.ts";

/** A connection needs a person to log in (no tokens, or they were revoked or expired for good). */
export class LoginRequiredError extends Error {
  override name = "LoginRequiredError";
}

export interface LoginSession {
  /** The loopback listener's callback URL. */
  redirectUrl: string;
  /** The `state` the callback must carry back. */
  state: string;
  /** Where the person must go to authorize. */
  onAuthorizationUrl(url: URL): void;
}

export class StoredOAuthProvider implements OAuthClientProvider {
  readonly #server: string;
  readonly #store: OAuthStore;
  readonly #login: LoginSession | undefined;

  constructor(server: string, store: OAuthStore, login?: LoginSession) {
    this.#server = server;
    this.#store = store;
    this.#login = login;
  }

  get redirectUrl(): string | undefined {
    return this.#login?.redirectUrl ?? this.#store.read().redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "toolrt",
      software_id: "toolrt",
      software_version: packageJson.version,
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // A public client: PKCE instead of a secret.
      token_endpoint_auth_method: "none",
    };
  }

  state(): string {
    return this.#login?.state ?? "";
  }

  /** The registration, unless a login listens elsewhere than the registered redirect URI. */
  clientInformation(): OAuthClientInformationMixed | undefined {
    const stored = this.#store.read();
    if (this.#login && stored.redirectUrl !== this.#login.redirectUrl) return undefined;
    return stored.clientInformation;
  }

  saveClientInformation(clientInformation: OAuthClientInformationMixed): void {
    this.#update({ clientInformation, ...(this.redirectUrl ? { redirectUrl: this.redirectUrl } : {}) });
  }

  /**
   * A login starts from no tokens (another account, or tokens that stopped working); the stored
   * ones stay until new ones replace them.
   */
  tokens(): OAuthTokens | undefined {
    return this.#login ? undefined : this.#store.read().tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#update({ tokens, savedAt: Date.now() });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (!this.#login) {
      throw new LoginRequiredError(
        `the authorization server wants a new login: run \`toolrt mcp login ${this.#server}\``,
      );
    }
    this.#login.onAuthorizationUrl(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#update({ codeVerifier });
  }

  codeVerifier(): string {
    const verifier = this.#store.read().codeVerifier;
    if (!verifier) throw new Error("no PKCE code verifier saved: the login must start again");
    return verifier;
  }

  saveDiscoveryState(discoveryState: OAuthDiscoveryState): void {
    this.#update({ discoveryState });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#store.read().discoveryState;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    const dropped: Record<typeof scope, (keyof StoredOAuth)[]> = {
      all: ["clientInformation", "tokens", "savedAt", "codeVerifier", "discoveryState"],
      client: ["clientInformation"],
      tokens: ["tokens", "savedAt"],
      verifier: ["codeVerifier"],
      discovery: ["discoveryState"],
    };
    this.#store.update((stored) => {
      const next = { ...stored };
      for (const key of dropped[scope]) delete next[key];
      return next;
    });
  }

  #update(fields: Partial<StoredOAuth>): void {
    this.#store.update((stored) => ({ ...stored, ...fields }));
  }
}
