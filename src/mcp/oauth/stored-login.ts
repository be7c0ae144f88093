/**
 * The OAuth provider a connection to a remote server uses, once `toolrt mcp login` has been run for
 * it (tokens, or a registration whose tokens were dropped as revoked); otherwise none, and the
 * server's config alone decides (headers).
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { McpServerConfig } from "../config.ts";
import { StoredOAuthProvider } from "./provider.ts";
import { OAuthStore } from "./store.ts";

export function storedLogin(
  stateDir: string,
  server: string,
  config: McpServerConfig,
): OAuthClientProvider | undefined {
  if (config.type === "stdio" || config.type === "ws") return undefined;
  const store = new OAuthStore(stateDir, server, config.url);
  const stored = store.read();
  return stored.tokens || stored.clientInformation ? new StoredOAuthProvider(server, store) : undefined;
}
