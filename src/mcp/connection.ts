/**
 * One MCP server's connection, as a state machine:
 *
 *   pending ──► connected ──(process died / network gone)──► pending (reconnecting, with backoff)
 *      │            │                                            │
 *      │            └──(HTTP 404 + -32001)──► pending (re-initialize at once)
 *      ├──► failed      (error, timeout, or reconnect attempts used up)
 *      └──► needs-auth  (HTTP 401)
 *   disabled            (never started: policy, approval, `disabled`, missing variables)
 *
 * While reconnecting, the server's tools stay in the pool and calls wait for the connection;
 * once it has failed for good they leave the pool.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  ListResourcesResultSchema,
  type ReadResourceResult,
  type Resource,
  ToolListChangedNotificationSchema,
  ToolSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import packageJson from "../../package.json" with { type: "json" };
import type { ToolResult } from "../tool/types.ts";
import type { McpToolDefinition, McpToolOutput } from "./bridge-tool.ts";
import type { McpServerConfig } from "./config.ts";
import { mcpResultToContent } from "./content.ts";
import { classifyFault, type FaultKind, withTimeout } from "./errors.ts";
import { normalizeNamePart } from "./definition-tool.ts";
import { dedupeByNormalizedName } from "./names.ts";
import { LoginRequiredError } from "./oauth/provider.ts";
import { storedLogin } from "./oauth/stored-login.ts";
import { type OpenedTransport, openTransport } from "./transport.ts";
import { textBlock } from "../tool/messages.ts";
import { errorMessage } from "../tool/errors.ts";

export type ConnectionStatus = "pending" | "connected" | "failed" | "needs-auth" | "disabled";

type State =
  /** `settled` is undefined until the first attempt starts; `attempt` 0 is the first connect. */
  | { status: "pending"; attempt: number; since: number; settled?: Promise<void> }
  | { status: "connected"; client: Client; opened: OpenedTransport }
  | { status: "failed"; error: string }
  | { status: "needs-auth"; error: string }
  | { status: "disabled"; reason: string };

export interface ReconnectPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  maxAttempts: number;
}

export interface ConnectionOptions {
  workspace: string;
  /** Where `toolrt mcp login` keeps OAuth tokens; remote servers present them when there are any. */
  stateDir?: string;
  connectTimeoutMs: number;
  callTimeoutMs: number;
  maxOutputTokens: number;
  reconnect: ReconnectPolicy;
}

export interface ConnectionEvents {
  /** The server's tools, on (re)connect and after list_changed. */
  onTools(server: string, tools: McpToolDefinition[]): void;
  /** The server is gone for good (failed, needs auth, closed): its tools leave the pool. */
  onGone(server: string): void;
}

export interface ConnectionSnapshot {
  name: string;
  status: ConnectionStatus;
  toolCount: number;
  /** Why it failed, needs auth or is disabled. */
  reason?: string;
  /** Reconnect attempt in progress (pending only). */
  attempt?: number;
  /** Skipped tools, name collisions, malformed messages: reported, never fatal. */
  problems: string[];
  instructions?: string;
  hasResources: boolean;
}

const MAX_PROBLEMS = 20;
const LenientToolList = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

export class McpConnection {
  readonly name: string;
  readonly #config: McpServerConfig;
  readonly #options: ConnectionOptions;
  readonly #events: ConnectionEvents;
  readonly #connectTimeoutMs: number;
  #state: State;
  #tools: McpToolDefinition[] = [];
  #problems: string[] = [];
  #closed = false;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  /** The client of the attempt in progress, if any. */
  #connecting: Client | undefined;

  constructor(
    name: string,
    config: McpServerConfig,
    options: ConnectionOptions,
    events: ConnectionEvents,
    disabledReason?: string,
  ) {
    this.name = name;
    this.#config = config;
    this.#options = options;
    this.#events = events;
    this.#connectTimeoutMs = config.connectTimeoutMs ?? options.connectTimeoutMs;
    this.#state = disabledReason
      ? { status: "disabled", reason: disabledReason }
      : { status: "pending", attempt: 0, since: Date.now() };
  }

  get status(): ConnectionStatus {
    return this.#state.status;
  }

  /** The tools last listed; kept while reconnecting, empty once the server is gone. */
  get tools(): readonly McpToolDefinition[] {
    return this.#tools;
  }

  snapshot(): ConnectionSnapshot {
    const state = this.#state;
    const reason = state.status === "failed" || state.status === "needs-auth"
      ? state.error
      : state.status === "disabled"
      ? state.reason
      : undefined;
    const client = state.status === "connected" ? state.client : undefined;
    return {
      name: this.name,
      status: state.status,
      toolCount: this.#tools.length,
      ...(reason ? { reason } : {}),
      ...(state.status === "pending" && state.attempt > 0 ? { attempt: state.attempt } : {}),
      problems: [...this.#problems],
      ...(client?.getInstructions() ? { instructions: client.getInstructions() } : {}),
      hasResources: client?.getServerCapabilities()?.resources !== undefined,
    };
  }

  /**
   * Why a tool of this server cannot be called now, when the server is not connected: still
   * connecting, failed, waiting for authorization, or never started. For the error a call of one
   * of its tools gets when the tool is not in the pool.
   */
  unavailableReason(now = Date.now()): string | undefined {
    const state = this.#state;
    const server = `MCP server ${this.name}`;
    switch (state.status) {
      case "connected":
        return undefined;
      case "pending": {
        if (state.attempt > 0) {
          return `${server} lost its connection and is reconnecting (attempt ${state.attempt})`;
        }
        const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
        return `${server} is still connecting (for ${seconds(now - state.since)}; ` +
          `it gives up after ${seconds(this.#connectTimeoutMs)}). Try again shortly`;
      }
      case "failed":
        return `${server} failed: ${state.error}`;
      case "needs-auth":
        return `${server} needs authorization: ${state.error}`;
      case "disabled":
        return `${server} is not started: ${state.reason}`;
    }
  }

  /**
   * Connects unless connected or connecting: concurrent callers share one attempt, and a failed
   * server is tried afresh. Resolves when the machine has left "pending", following reconnects.
   */
  async connect(): Promise<void> {
    if (this.#closed) return;
    const state = this.#state;
    const idle = state.status === "pending" && state.settled === undefined;
    if (idle || state.status === "failed" || state.status === "needs-auth") {
      this.#startAttempt(0, Promise.resolve());
    }
    for (let current = this.#state; current.status === "pending"; current = this.#state) {
      await current.settled;
      // An attempt always leaves "pending" or starts the next one; if neither happened, waiting
      // again on a settled promise would spin without ever yielding to timers or I/O.
      if (this.#state === current) return;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#reconnectTimer);
    const state = this.#state;
    if (state.status !== "disabled") this.#state = { status: "failed", error: "closed" };
    // A server still connecting is stopped too, not left to finish (or time out) on its own.
    const clients = [this.#connecting, state.status === "connected" ? state.client : undefined];
    await Promise.all(clients.map((client) => client?.close().catch(() => {})));
  }

  /** Calls a tool; every failure becomes an is_error result the model can act on. */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<ToolResult<McpToolOutput>> {
    const first = await this.#call(tool, args, signal);
    if (first.ok) return first.result;
    if (first.fault === "session-expired") {
      // The server never saw the call (it rejected the session), so sending it again is safe.
      this.#note(`session expired; initializing a new one`);
      await this.#dropAndConnect(first.client);
      const second = await this.#call(tool, args, signal);
      if (second.ok) return second.result;
      return this.#failure(tool, second.fault, second.error);
    }
    return this.#failure(tool, first.fault, first.error);
  }

  async listResources(): Promise<Resource[]> {
    const client = await this.#connectedClient();
    const options = { timeout: this.#options.callTimeoutMs };
    return allPages(async (params) => {
      const page = await client.request(
        { method: "resources/list", params },
        ListResourcesResultSchema,
        options,
      );
      return [page.resources, page.nextCursor];
    });
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    const client = await this.#connectedClient();
    return client.readResource({ uri }, { timeout: this.#options.callTimeoutMs });
  }

  async #connectedClient(): Promise<Client> {
    await this.connect();
    const state = this.#state;
    if (state.status !== "connected") {
      throw new Error(`MCP server ${this.name} is not connected (${this.snapshot().reason ?? state.status})`);
    }
    return state.client;
  }

  // ── transitions ────────────────────────────────────────────────────────────

  /** Enters "pending" and runs one attempt once `after` resolves (now, or after a backoff delay). */
  #startAttempt(attempt: number, after: Promise<void>): void {
    const settled = after.then(() => this.#runAttempt(attempt));
    const since = this.#state.status === "pending" ? this.#state.since : Date.now();
    this.#state = { status: "pending", attempt, since, settled };
  }

  async #runAttempt(attempt: number): Promise<void> {
    if (this.#closed) return;
    try {
      const { client, opened, tools } = await this.#attempt();
      this.#enterConnected(client, opened, tools);
    } catch (error) {
      this.#attemptFailed(attempt, error);
    }
  }

  async #attempt(): Promise<{ client: Client; opened: OpenedTransport; tools: McpToolDefinition[] }> {
    const { workspace, stateDir } = this.#options;
    const login = stateDir === undefined ? undefined : storedLogin(stateDir, this.name, this.#config);
    const opened = openTransport(this.#config, workspace, login);
    const client = new Client({ name: "toolrt", version: packageJson.version }, { capabilities: {} });
    // While connecting, what the transport reports is part of the attempt's outcome: a failed
    // attempt is told once, by its reason. Once connected, a malformed message is reported and
    // skipped (the SDK keeps reading after it).
    const early: string[] = [];
    client.onerror = (error) => void early.push(`transport: ${errorMessage(error)}`);
    const timeoutMs = this.#connectTimeoutMs;
    this.#connecting = client;
    try {
      const tools = await withTimeout(
        (async () => {
          await client.connect(opened.transport, { timeout: timeoutMs });
          return await this.#listTools(client);
        })(),
        timeoutMs,
        `did not finish connecting within ${timeoutMs} ms`,
      );
      for (const problem of early) this.#note(problem);
      client.onerror = (error) => this.#note(`transport: ${errorMessage(error)}`);
      return { client, opened, tools };
    } catch (error) {
      client.onerror = undefined;
      await client.close().catch(() => {});
      const stderr = opened.stderrTail();
      throw new Error(`${errorMessage(error)}${stderr ? `\nstderr: ${stderr}` : ""}`, { cause: error });
    } finally {
      this.#connecting = undefined;
    }
  }

  #enterConnected(client: Client, opened: OpenedTransport, tools: McpToolDefinition[]): void {
    if (this.#closed) {
      void client.close().catch(() => {});
      return;
    }
    this.#state = { status: "connected", client, opened };
    this.#tools = tools;
    client.onclose = () => this.#connectionLost(client, "the server closed the connection");
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#refreshTools(client));
    this.#events.onTools(this.name, tools);
  }

  #attemptFailed(attempt: number, error: unknown): void {
    if (this.#closed) return;
    const cause = (error as { cause?: unknown }).cause ?? error;
    if (classifyFault(cause) === "needs-auth") {
      this.#enterGone({ status: "needs-auth", error: this.#authAdvice(cause, errorMessage(error)) });
      return;
    }
    const policy = this.#options.reconnect;
    if (attempt === 0 || attempt >= policy.maxAttempts) {
      const tried = attempt === 0 ? "" : ` (after ${attempt} reconnect attempts)`;
      this.#enterGone({ status: "failed", error: `${errorMessage(error)}${tried}` });
      return;
    }
    this.#scheduleReconnect(attempt + 1);
  }

  #enterGone(state: Extract<State, { status: "failed" | "needs-auth" }>): void {
    this.#state = state;
    this.#tools = [];
    this.#events.onGone(this.name);
  }

  /** The process died or the network went away: keep the tools, reconnect with backoff. */
  #connectionLost(client: Client, why: string): void {
    const state = this.#state;
    if (this.#closed || state.status !== "connected" || state.client !== client) return;
    this.#note(`connection lost: ${why}; reconnecting`);
    client.onclose = undefined;
    void client.close().catch(() => {});
    this.#scheduleReconnect(1);
  }

  #scheduleReconnect(attempt: number): void {
    const { baseDelayMs, maxDelayMs } = this.#options.reconnect;
    const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    const elapsed = new Promise<void>((resolve) => (this.#reconnectTimer = setTimeout(resolve, delay)));
    this.#startAttempt(attempt, elapsed);
  }

  /** Session expired: drop this client and initialize again now, without backoff. */
  async #dropAndConnect(client: Client | undefined): Promise<void> {
    const state = this.#state;
    if (state.status === "connected" && state.client === client) {
      client.onclose = undefined;
      await client.close().catch(() => {});
      this.#startAttempt(0, Promise.resolve());
    }
    await this.connect();
  }

  async #refreshTools(client: Client): Promise<void> {
    try {
      const tools = await this.#listTools(client);
      const state = this.#state;
      if (state.status !== "connected" || state.client !== client) return;
      this.#tools = tools;
      this.#events.onTools(this.name, tools);
    } catch (error) {
      this.#note(`tools/list after list_changed failed: ${errorMessage(error)}`);
    }
  }

  // ── calls ──────────────────────────────────────────────────────────────────

  async #call(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<
    | { ok: true; result: ToolResult<McpToolOutput> }
    | { ok: false; fault: FaultKind; error: unknown; client: Client | undefined }
  > {
    const timeoutMs = this.#options.callTimeoutMs;
    let client: Client | undefined;
    try {
      await withTimeout(this.connect(), timeoutMs, `did not connect within ${timeoutMs} ms`);
      client = await this.#connectedClient();
      const result = await client.callTool({ name: tool, arguments: args }, CallToolResultSchema, {
        timeout: timeoutMs,
        ...(signal ? { signal } : {}),
      }) as CallToolResult;
      const content = mcpResultToContent(result, this.#options.maxOutputTokens);
      const output: McpToolOutput = {
        content,
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
      };
      return { ok: true, result: { data: output, isError: result.isError === true } };
    } catch (error) {
      return { ok: false, fault: classifyFault(error), error, client };
    }
  }

  #failure(tool: string, fault: FaultKind, error: unknown): ToolResult<McpToolOutput> {
    const state = this.#state;
    const client = state.status === "connected" ? state.client : undefined;
    const prefix = `MCP server ${this.name}, tool ${tool}`;
    let message: string;
    switch (fault) {
      case "timeout":
        message = `${prefix}: no answer within ${this.#options.callTimeoutMs} ms (${errorMessage(error)})`;
        break;
      case "connection-lost":
        message = `${prefix}: the connection was lost during the call (the server may have crashed: ` +
          `${errorMessage(error)}). toolrt is reconnecting; the call may or may not have taken effect.`;
        if (client) this.#connectionLost(client, errorMessage(error));
        break;
      case "needs-auth":
        message = `${prefix}: ${this.#authAdvice(error, errorMessage(error))}`;
        this.#enterGone({ status: "needs-auth", error: this.#authAdvice(error, errorMessage(error)) });
        break;
      case "session-expired":
        message = `${prefix}: the session expired again right after re-initializing (${errorMessage(error)})`;
        break;
      case "server-error":
        message = `${prefix}: ${errorMessage(error)}`;
        break;
    }
    return { data: { content: [textBlock(message)] }, isError: true };
  }

  // ── tools ──────────────────────────────────────────────────────────────────

  /** Lists tools page by page, skipping (and reporting) the ones that are not valid definitions. */
  async #listTools(client: Client): Promise<McpToolDefinition[]> {
    if (!client.getServerCapabilities()?.tools) return [];
    const options = { timeout: this.#connectTimeoutMs };
    const raw = await allPages(async (params) => {
      const page = await client.request({ method: "tools/list", params }, LenientToolList, options);
      return [page.tools, page.nextCursor];
    });

    const valid: McpToolDefinition[] = [];
    for (const candidate of raw) {
      const parsed = ToolSchema.safeParse(candidate);
      if (parsed.success) {
        const { name, title, description, inputSchema, outputSchema, annotations } = parsed.data;
        valid.push({
          name,
          inputSchema,
          ...(title ? { title } : {}),
          ...(description ? { description } : {}),
          ...(outputSchema ? { outputSchema } : {}),
          ...(annotations ? { annotations } : {}),
        });
        continue;
      }
      const name = (candidate as { name?: unknown } | null)?.name;
      const issue = parsed.error.issues[0];
      this.#note(
        `tool ${typeof name === "string" ? name : JSON.stringify(name)} skipped: ` +
          `${issue?.path.join(".") || "definition"}: ${issue?.message ?? "invalid"}`,
      );
    }
    valid.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const { kept, collisions } = dedupeByNormalizedName(valid, (t) => t.name, normalizeNamePart);
    for (const c of collisions) {
      this.#note(`tool ${c.dropped} skipped: its name ${c.name} is taken by ${c.kept}`);
    }
    return kept;
  }

  /** What to do about a refusal: log in (OAuth), or configure a header. */
  #authAdvice(cause: unknown, message: string): string {
    if (cause instanceof LoginRequiredError) {
      return `the login is missing, expired or revoked; ${cause.message}`;
    }
    return `the server requires authorization (${message}): run \`toolrt mcp login ${this.name}\` ` +
      `if it supports OAuth, or set an Authorization header in its config`;
  }

  #note(problem: string): void {
    this.#problems = [...this.#problems, problem].slice(-MAX_PROBLEMS);
  }
}

/** Follows `nextCursor` until the last page of a paginated MCP list. */
async function allPages<T>(
  fetchPage: (params: { cursor?: string }) => Promise<[T[], string | undefined]>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const [page, next] = await fetchPage(cursor ? { cursor } : {});
    items.push(...page);
    cursor = next;
  } while (cursor);
  return items;
}
