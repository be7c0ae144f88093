/**
 * MCP server configuration in Claude Code's `.mcp.json` shape: `{ "mcpServers": { name: server } }`
 * where a server is stdio (`command`, `args`, `env`), Streamable HTTP (`url`, `headers`), legacy
 * SSE, or WebSocket (`ws://`, `wss://`). `type` may be omitted: `command` means stdio, `url` means http. `${VAR}` and
 * `${VAR:-default}` are expanded from the environment in commands, arguments, env, urls and headers.
 */
import { z } from "zod";
import type { JsonDocument, JsonPath } from "../policy/json-position.ts";

const common = {
  /** Tools of this server are always sent in full, never deferred. */
  alwaysLoad: z.boolean().optional(),
  /** Keep the server configured but do not start it. */
  disabled: z.boolean().optional(),
  /** How long connecting (initialize and the tool list) may take; default `$MCP_TIMEOUT` or 30 s. */
  connectTimeoutMs: z.number().int().positive().optional(),
};

const StdioServer = z.strictObject({
  type: z.literal("stdio"),
  command: z.string().min(1, "command must not be empty"),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
  ...common,
});

const RemoteServer = (type: "http" | "sse") =>
  z.strictObject({
    type: z.literal(type),
    url: z.url({ protocol: /^https?$/, error: "url must be an http(s) URL" }),
    headers: z.record(z.string(), z.string()).default({}),
    ...common,
  });

/** The SDK's WebSocket transport sends no headers: such a server cannot take a token. */
const WebSocketServer = z.strictObject({
  type: z.literal("ws"),
  url: z.url({ protocol: /^wss?$/, error: "url must be a ws(s) URL" }),
  ...common,
});

const ServerSchema = z.discriminatedUnion("type", [
  StdioServer,
  RemoteServer("http"),
  RemoteServer("sse"),
  WebSocketServer,
]);

export type McpServerConfig = z.infer<typeof ServerSchema>;
export type McpTransportType = McpServerConfig["type"];

export class McpConfigError extends Error {
  override name = "McpConfigError";
}

/** `type` is optional in the file: a `command` makes a stdio server, a `url` an HTTP one (ws:// a WebSocket one). */
function withInferredType(raw: unknown): unknown {
  if (!raw || typeof raw !== "object" || Array.isArray(raw) || "type" in raw) return raw;
  if ("command" in raw) return { type: "stdio", ...raw };
  if ("url" in raw) return { type: /^wss?:/i.test(String(raw.url)) ? "ws" : "http", ...raw };
  return raw;
}

/**
 * Parses one server entry; throws McpConfigError naming the file, the server and the field (and,
 * given the parsed file, the line and column: `at` is the entry's path in it).
 */
export function parseServerConfig(
  raw: unknown,
  where: string,
  located?: { doc: JsonDocument; at: JsonPath },
): McpServerConfig {
  const parsed = ServerSchema.safeParse(withInferredType(raw));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length > 0 ? `.${issue.path.join(".")}` : "";
  const message = issue.code === "invalid_union"
    ? "expected `command` (stdio) or `url` (http, sse, ws), or a `type` of stdio, http, sse or ws"
    : issue.message;
  if (located) {
    const path = [...located.at, ...issue.path.filter((p) => typeof p !== "symbol")];
    const name = located.at.slice(1).join(".");
    throw new McpConfigError(
      located.doc.problemAt(path as JsonPath, `mcpServers.${name}${field}: ${message}`).message,
    );
  }
  throw new McpConfigError(`${where}${field}: ${message}`);
}

/** The `mcpServers` object of a parsed file, each entry validated (`doc`: positions for errors). */
export function parseServersObject(
  value: unknown,
  where: string,
  doc?: JsonDocument,
): Map<string, McpServerConfig> {
  if (value === undefined) return new Map();
  const problem = (path: JsonPath, detail: string) =>
    new McpConfigError(doc ? doc.problemAt(path, detail).message : `${where}: ${detail}`);
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw problem(["mcpServers"], "mcpServers must be an object of server name → server");
  }
  const servers = new Map<string, McpServerConfig>();
  for (const [name, raw] of Object.entries(value)) {
    if (name.trim() === "") throw problem(["mcpServers", name], "a server name is empty");
    const located = doc ? { doc, at: ["mcpServers", name] } : undefined;
    servers.set(name, parseServerConfig(raw, `${where}: mcpServers.${name}`, located));
  }
  return servers;
}

export interface Expanded<T> {
  value: T;
  /** Variables referenced without a default and not set. */
  missing: string[];
}

/** Expands `${VAR}` and `${VAR:-default}` in every string of a server config. */
export function expandServerConfig(
  config: McpServerConfig,
  env: NodeJS.ProcessEnv,
): Expanded<McpServerConfig> {
  const missing = new Set<string>();
  const expand = (text: string) =>
    text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name: string, fallback?: string) => {
      const value = env[name];
      if (value !== undefined && value !== "") return value;
      if (fallback !== undefined) return fallback;
      missing.add(name);
      return "";
    });
  const expandRecord = (record: Record<string, string>) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, expand(v)]));
  const value: McpServerConfig = config.type === "stdio"
    ? {
      ...config,
      command: expand(config.command),
      args: config.args.map(expand),
      env: expandRecord(config.env),
      ...(config.cwd ? { cwd: expand(config.cwd) } : {}),
    }
    : config.type === "ws"
    ? { ...config, url: expand(config.url) }
    : { ...config, url: expand(config.url), headers: expandRecord(config.headers) };
  return { value, missing: [...missing] };
}

/** A short human description: the command line or the URL. */
export function describeServerConfig(config: McpServerConfig): string {
  return config.type === "stdio"
    ? [config.command, ...config.args].join(" ")
    : `${config.type} ${config.url}`;
}
