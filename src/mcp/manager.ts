/**
 * The MCP tool source of a session: one memoized connection per configured server, connected in
 * parallel, each feeding its tools into the pool as `mcp:<server>` the moment it connects — so a
 * slow server never delays the others. Every change (connect, reconnect, list_changed, failure)
 * reaches the pool through `setSource`/`removeSource`, which rebuild it through `refreshPool()`.
 */
import type { ReadResourceResult, Resource } from "@modelcontextprotocol/sdk/types.js";
import { PoolFanOut, type PoolSink } from "../pool/fan-out.ts";
import type { McpResourceSource } from "../tools/mcp-resources/source.ts";
import type { AnyTool } from "../tool/types.ts";
import { buildMcpBridgeTool, type McpToolDefinition } from "./bridge-tool.ts";
import { describeServerConfig, expandServerConfig, type McpTransportType } from "./config.ts";
import type { McpScope, McpServerEntry } from "./config-sources.ts";
import { type ConnectionOptions, type ConnectionSnapshot, McpConnection } from "./connection.ts";
import { maxMcpOutputTokens } from "./content.ts";
import { normalizeNamePart } from "./definition-tool.ts";

export interface McpServerStatus extends ConnectionSnapshot {
  scope: McpScope;
  file: string;
  transport: McpTransportType;
  /** The command line or URL. */
  target: string;
}

export interface McpManagerOptions extends Partial<Omit<ConnectionOptions, "workspace">> {
  workspace: string;
  env?: NodeJS.ProcessEnv;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_CALL_TIMEOUT_MS = 600_000;

function sourceIdOf(server: string): string {
  return `mcp:${server}`;
}

export class McpManager implements McpResourceSource {
  readonly #entries = new Map<string, McpServerEntry>();
  readonly #connections = new Map<string, McpConnection>();
  /** Every pool fed by these servers (a session's, and each subagent's). */
  readonly #pools = new PoolFanOut();

  constructor(servers: readonly McpServerEntry[], options: McpManagerOptions) {
    const env = options.env ?? process.env;
    const connectionOptions: ConnectionOptions = {
      workspace: options.workspace,
      ...(options.stateDir ? { stateDir: options.stateDir } : {}),
      connectTimeoutMs: options.connectTimeoutMs ?? envMs(env.MCP_TIMEOUT) ?? DEFAULT_CONNECT_TIMEOUT_MS,
      callTimeoutMs: options.callTimeoutMs ?? envMs(env.MCP_TOOL_TIMEOUT) ?? DEFAULT_CALL_TIMEOUT_MS,
      maxOutputTokens: options.maxOutputTokens ?? maxMcpOutputTokens(env),
      reconnect: options.reconnect ?? { baseDelayMs: 500, maxDelayMs: 30_000, maxAttempts: 5 },
    };
    const events = {
      onTools: (server: string, tools: McpToolDefinition[]) => this.#publish(server, tools),
      onGone: (server: string) => this.#pools.removeSource(sourceIdOf(server)),
    };
    for (const entry of servers) {
      const { value, missing } = expandServerConfig(entry.config, env);
      const disabled = entry.disabledReason ??
        (missing.length > 0 ? `environment variable not set: ${missing.join(", ")}` : undefined);
      this.#entries.set(entry.name, { ...entry, config: value });
      this.#connections.set(
        entry.name,
        new McpConnection(entry.name, value, connectionOptions, events, disabled),
      );
    }
  }

  /** Starts feeding a pool; servers already connected are published to it at once. Returns a detach. */
  attach(pool: PoolSink): () => void {
    return this.#pools.attach(pool);
  }

  /** Connects every enabled server in parallel; resolves once each has settled, whatever the outcome. */
  async connectAll(): Promise<McpServerStatus[]> {
    await Promise.all([...this.#connections.values()].map((c) => c.connect()));
    return this.statuses();
  }

  /**
   * Starts connecting every enabled server without waiting: each one's tools reach the pool when
   * it connects (the pool's change listeners hear of it), a failure reaches `statuses()`.
   */
  startAll(): void {
    void this.connectAll();
  }

  /**
   * Why `mcp__<server>__<tool>` is not in the pool when its server is configured but not connected
   * (still connecting, failed, needs authorization, disabled); undefined for any other name.
   */
  unavailableReason(toolName: string): string | undefined {
    let owner: McpConnection | undefined;
    let longest = -1;
    for (const connection of this.#connections.values()) {
      const prefix = `mcp__${normalizeNamePart(connection.name)}__`;
      if (toolName.startsWith(prefix) && prefix.length > longest) {
        owner = connection;
        longest = prefix.length;
      }
    }
    return owner?.unavailableReason();
  }

  connection(server: string): McpConnection | undefined {
    return this.#connections.get(server);
  }

  statuses(): McpServerStatus[] {
    return [...this.#connections.values()].map((connection) => {
      const entry = this.#entries.get(connection.name)!;
      return {
        ...connection.snapshot(),
        scope: entry.scope,
        file: entry.file,
        transport: entry.config.type,
        target: describeServerConfig(entry.config),
      };
    });
  }

  /** Resources of one server, or of every connected server that offers them. */
  async listResources(server?: string): Promise<(Resource & { server: string })[]> {
    const names = server ? [server] : this.statuses().filter((s) => s.hasResources).map((s) => s.name);
    const lists = await Promise.all(names.map(async (name) => {
      const resources = await this.#require(name).listResources();
      return resources.map((r) => ({ ...r, server: name }));
    }));
    return lists.flat();
  }

  hasResourceServers(): boolean {
    return [...this.#connections.values()].some((c) => c.status === "connected" && c.snapshot().hasResources);
  }

  readResource(server: string, uri: string): Promise<ReadResourceResult> {
    return this.#require(server).readResource(uri);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#connections.values()].map((c) => c.close()));
  }

  #require(server: string): McpConnection {
    const connection = this.#connections.get(server);
    if (!connection) {
      const known = [...this.#connections.keys()].join(", ") || "none";
      throw new Error(`no MCP server named ${server} (configured: ${known})`);
    }
    return connection;
  }

  #publish(server: string, definitions: readonly McpToolDefinition[]): void {
    const entry = this.#entries.get(server)!;
    const connection = this.#connections.get(server)!;
    const tools: AnyTool[] = definitions.map((definition) =>
      buildMcpBridgeTool(
        server,
        definition,
        (input, ctx) => connection.callTool(definition.name, input, ctx.abortSignal),
        { alwaysLoad: entry.config.alwaysLoad === true },
      )
    );
    this.#pools.setSource(sourceIdOf(server), tools);
  }
}

function envMs(value: string | undefined): number | undefined {
  const ms = Number(value);
  return value && Number.isFinite(ms) && ms > 0 ? ms : undefined;
}
