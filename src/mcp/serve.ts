/**
 * `toolrt serve`: the session's pool as an MCP server. Every call goes through
 * `session.execute` — the same pipeline, policy, sandbox and audit as a local call; a request
 * arriving over the wire is never consent by itself. An "ask" becomes an MCP elicitation, sent
 * with the call it belongs to (over Streamable HTTP: on that call's response stream), when the
 * client supports it; otherwise, or when nobody answers yes, the call is denied with the reason
 * and the rule that would allow it.
 */
import { randomUUID } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import { parseTraceparent } from "../telemetry/trace.ts";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  type ContentBlock as McpContent,
  type ElicitResult,
  ListToolsRequestSchema,
  type RequestId,
  type Tool as McpTool,
  type ToolAnnotations,
} from "@modelcontextprotocol/sdk/types.js";
import packageJson from "../../package.json" with { type: "json" };
import { explainedDenial } from "../exec/permission.ts";
import type { AskAnswer, Asker, AskRequest, Session } from "../exec/types.ts";
import type { SearchScope } from "../policy/policy.ts";
import { type AssembledPool, isDeferredIn } from "../pool/assemble.ts";
import { toolLevelAnswers } from "../pool/describe.ts";
import { searchableTools, UNRESTRICTED } from "../search/scope.ts";
import { errorMessage } from "../tool/errors.ts";
import type { ContentBlock } from "../tool/messages.ts";
import type { AnyTool } from "../tool/types.ts";
import { startHttpEndpoint } from "./http-endpoint.ts";
import { watchParent } from "./lifecycle.ts";

/** The tool that finds deferred tools; while it is in the pool, deferred tools are listed once found. */
const TOOL_SEARCH_NAME = "ToolSearch";

/**
 * How deferred tools reach a client. "search": listed once the client has found them with
 * ToolSearch, and callable by their exact name before that. "list": every tool is listed, for
 * clients that only call what `tools/list` shows. Either way each call goes through policy.
 */
export type DeferredToolsMode = "search" | "list";
export const DEFERRED_TOOLS_MODES: readonly DeferredToolsMode[] = ["search", "list"];

export interface ServeOptions {
  deferredTools?: DeferredToolsMode;
  /** How long a person has to answer an elicitation before the call is denied. */
  askTimeoutMs?: number;
  /**
   * Awaited before answering `tools/list` (default: nothing, the answer is what is connected now).
   * The CLI's `--wait-for-servers` bounds a wait for servers still connecting, for one-shot clients
   * that list once and never hear list_changed.
   */
  beforeListingTools?: () => Promise<void>;
  /**
   * The policy's search scope: under "list", the deferred tools listed are those ToolSearch could
   * find, so listing never offers what the policy keeps out of search (default: unrestricted).
   */
  searchScope?: () => SearchScope;
}

const DEFAULT_ASK_TIMEOUT_MS = 10 * 60 * 1000;

/** One MCP server for one client connection (each HTTP session gets its own). */
export function createServeServer(session: Session, options: ServeOptions = {}): Server {
  const server = new Server(
    { name: "toolrt", version: packageJson.version },
    {
      capabilities: { tools: { listChanged: true } },
      instructions: "toolrt's policy-governed tools. Calls may be denied or need approval; " +
        `use ${TOOL_SEARCH_NAME} (when listed) to find more tools.`,
    },
  );
  const mode = options.deferredTools ?? "search";
  // Deferred tools this client has found through ToolSearch; listed from then on.
  const discovered = new Set<string>();
  const unsubscribe = session.pool.onChange(() => void server.sendToolListChanged().catch(() => {}));
  server.onclose = unsubscribe;

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await options.beforeListingTools?.();
    const scope = options.searchScope?.() ?? UNRESTRICTED;
    return { tools: listedTools(session.pool.current, discovered, mode, scope).map(toMcpTool) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const progressToken = request.params._meta?.progressToken;
    // A client that traces its agent turns says so in `_meta.traceparent`: the call's spans join it.
    const traceParent = parseTraceparent(request.params._meta?.traceparent);
    let progress = 0;
    const asker = elicitationAsker(server, {
      relatedRequestId: extra.requestId,
      signal: extra.signal,
      timeoutMs: options.askTimeoutMs ?? DEFAULT_ASK_TIMEOUT_MS,
    });
    const outcome = await session.execute(
      { id: `mcp-${randomUUID()}`, name: request.params.name, input: request.params.arguments ?? {} },
      {
        signal: extra.signal,
        ...(asker ? { ask: asker } : {}),
        ...(traceParent ? { traceParent } : {}),
        ...(progressToken === undefined ? {} : {
          onProgress: (p) =>
            void extra.sendNotification({
              method: "notifications/progress",
              params: { progressToken, progress: ++progress, message: p.message },
            }).catch(() => {}),
        }),
      },
    );
    const found = outcome.content.flatMap((b) => (b.type === "tool_reference" ? [b.tool_name] : []));
    if (found.some((name) => !discovered.has(name))) {
      for (const name of found) discovered.add(name);
      void server.sendToolListChanged().catch(() => {});
    }
    const structured = outcome.structuredContent;
    return {
      content: outcome.content.map(toMcpContent),
      ...(isJsonObject(structured) ? { structuredContent: structured } : {}),
      isError: outcome.isError,
    };
  });
  return server;
}

/**
 * What a client is offered: the loaded tools, and of the deferred ones those this client has found
 * ("search", with ToolSearch in the pool), or all that the search scope lets be found ("list").
 * Without ToolSearch in the pool, every tool: a client could not find deferred tools otherwise.
 */
function listedTools(
  pool: AssembledPool,
  discovered: ReadonlySet<string>,
  mode: DeferredToolsMode,
  scope: SearchScope,
): AnyTool[] {
  if (!pool.byName.has(TOOL_SEARCH_NAME)) return [...pool.tools];
  const deferred = pool.tools.filter((t) => isDeferredIn(pool, t));
  const offered = new Set(
    mode === "list" ? searchableTools(deferred, scope) : deferred.filter((t) => discovered.has(t.name)),
  );
  return pool.tools.filter((t) => !isDeferredIn(pool, t) || offered.has(t));
}

function toMcpTool(tool: AnyTool): McpTool {
  const schema = tool.inputJSONSchema();
  const outputSchema = tool.outputJSONSchema?.();
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.prompt(),
    inputSchema: { ...schema, type: "object" },
    ...(outputSchema?.type === "object" ? { outputSchema: outputSchema as McpTool["outputSchema"] } : {}),
    annotations: annotationsOf(tool),
  };
}

/**
 * Annotations from the contract and the source's own claims. Fail-closed where nothing is known:
 * a tool neither read-only by the contract nor by its source's hint is announced as possibly
 * destructive, and open-world unless it is a built-in that edits or reads local files. A source's
 * hint is passed on as what it is, a hint: it never changes what policy lets through.
 */
export function annotationsOf(tool: AnyTool): ToolAnnotations {
  const described = toolLevelAnswers(tool);
  const hints = tool.origin.hints ?? {};
  const local = tool.origin.kind === "builtin" && ["read", "edit", "orchestration"].includes(tool.category);
  const readOnly = described.readOnly || (hints.readOnly === true && hints.destructive !== true);
  return {
    title: tool.title ?? tool.name,
    readOnlyHint: readOnly,
    destructiveHint: described.destructive || (!readOnly && hints.destructive !== false),
    ...(hints.idempotent !== undefined ? { idempotentHint: hints.idempotent } : {}),
    openWorldHint: hints.openWorld ?? !local,
  };
}

function toMcpContent(block: ContentBlock): McpContent {
  switch (block.type) {
    case "text":
      return { type: "text", text: withoutInternalTags(block.text) };
    case "image":
      return { type: "image", data: block.source.data, mimeType: block.source.media_type };
    case "tool_reference":
      return { type: "text", text: `Tool found: ${block.tool_name} (now listed; call it by name)` };
  }
}

/**
 * The pipeline's wrappers for the Anthropic API (`<tool_use_error>`, `<system-reminder>`) mean
 * nothing to an MCP client: `isError` already says a call failed. The words inside stay.
 */
function withoutInternalTags(text: string): string {
  return text.replace(/<\/?(?:tool_use_error|system-reminder)>\n?/g, "");
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const DECISIONS = ["allow-once", "allow-always", "deny"] as const;

interface AskContext {
  /** The tools/call request the question belongs to: over HTTP it travels on that call's stream. */
  relatedRequestId: RequestId;
  signal: AbortSignal;
  timeoutMs: number;
}

/** Asks the client's user through MCP elicitation, when the client announced that capability. */
function elicitationAsker(server: Server, context: AskContext): Asker | undefined {
  if (server.getClientCapabilities()?.elicitation === undefined) return undefined;
  return async (request) => {
    const lines = [
      `toolrt asks before running ${request.toolName}: ${request.reason}`,
      `Input: ${JSON.stringify(request.input)}`,
      ...request.warnings.map((w) => `Warning: ${w}`),
      ...(request.suggestions.length > 0 ? [`"Allow always" saves the rule ${request.suggestions[0]}`] : []),
    ];
    const options = request.suggestions.length > 0
      ? DECISIONS
      : DECISIONS.filter((d) => d !== "allow-always");
    let answer: ElicitResult;
    try {
      answer = await server.elicitInput({
        mode: "form",
        message: lines.join("\n"),
        requestedSchema: {
          type: "object",
          properties: { decision: { type: "string", title: "Decision", enum: [...options] } },
          required: ["decision"],
        },
      }, { relatedRequestId: context.relatedRequestId, signal: context.signal, timeout: context.timeoutMs });
    } catch (error) {
      return denied(request, `the MCP client could not ask its user (${errorMessage(error)})`);
    }
    return answerOf(answer, request);
  };
}

function answerOf(answer: ElicitResult, request: AskRequest): AskAnswer {
  switch (answer.action) {
    case "decline":
      return denied(request, "the user declined it");
    case "cancel":
      return denied(request, "the user dismissed the question without answering");
    case "accept":
      break;
  }
  const decision = answer.content?.decision;
  if (decision === "allow-once") return { behavior: "allow-once" };
  const rule = request.suggestions[0];
  if (decision === "allow-always") return { behavior: "allow-always", ...(rule ? { rule } : {}) };
  return denied(request, "the user denied it");
}

function denied(request: AskRequest, what: string): AskAnswer {
  return { behavior: "deny", message: explainedDenial(what, request.reason, request.suggestions) };
}

export interface StdioServeOptions extends ServeOptions {
  /** Default: the process's stdin and stdout. */
  input?: Readable;
  output?: Writable;
  /** Stop when the process that started this one is gone (default true for the process's own stdio). */
  watchParent?: boolean;
}

/** Why serving over stdio ended. */
export type StdioStop = "client closed" | "input closed" | "output closed" | "parent exited";

/**
 * Serves over stdio until the client is gone: it closes the connection, its end of our input
 * closes (EOF), our output breaks, or the process that started us exits (we were re-parented).
 */
export async function serveStdio(session: Session, options: StdioServeOptions = {}): Promise<StdioStop> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const server = createServeServer(session, options);
  let stop!: (why: StdioStop) => void;
  const stopped = new Promise<StdioStop>((resolve) => (stop = resolve));

  const previous = server.onclose;
  server.onclose = () => {
    previous?.();
    stop("client closed");
  };
  const onEnd = () => stop("input closed");
  const onOutputError = () => stop("output closed");
  input.once("end", onEnd);
  input.once("close", onEnd);
  output.on("error", onOutputError);
  const ownStdio = options.input === undefined;
  const unwatch = (options.watchParent ?? ownStdio) ? watchParent(() => stop("parent exited")) : () => {};

  await server.connect(new StdioServerTransport(input, output));
  const why = await stopped;
  unwatch();
  input.off("end", onEnd);
  input.off("close", onEnd);
  output.off("error", onOutputError);
  server.onclose = previous;
  await server.close().catch(() => {});
  return why;
}

export interface ServeHttpOptions extends ServeOptions {
  host: string;
  port: number;
  /** Undefined only with an explicit choice to serve without authentication (loopback only). */
  token?: string;
}

/** Serves Streamable HTTP at `http://HOST:PORT/mcp`; returns the URL and a stop function. */
export function serveHttp(session: Session, options: ServeHttpOptions) {
  const { host, port, token, ...serveOptions } = options;
  return startHttpEndpoint({
    host,
    port,
    ...(token === undefined ? {} : { token }),
    createServer: () => createServeServer(session, serveOptions),
  });
}
