/**
 * `toolrt serve`: the session's pool as an MCP server. Every call goes through
 * `session.execute` — the same pipeline, policy, sandbox and audit as a local call; a request
 * arriving over the wire is never consent by itself. An "ask" becomes an MCP elicitation when the
 * client supports it; otherwise no asker is given and the pipeline denies, saying which rule
 * would allow the call.
 */
import { randomUUID } from "node:crypto";
import { parseTraceparent } from "../telemetry/trace.ts";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  type ContentBlock as McpContent,
  ListToolsRequestSchema,
  type Tool as McpTool,
  type ToolAnnotations,
} from "@modelcontextprotocol/sdk/types.js";
import packageJson from "../../package.json" with { type: "json" };
import type { AskAnswer, Asker, Session } from "../exec/types.ts";
import { type AssembledPool, isDeferredIn } from "../pool/assemble.ts";
import { toolLevelAnswers } from "../pool/describe.ts";
import type { ContentBlock } from "../tool/messages.ts";
import type { AnyTool } from "../tool/types.ts";
import { startHttpEndpoint } from "./http-endpoint.ts";

/** The tool that finds deferred tools; while it is in the pool, deferred tools are listed once found. */
const TOOL_SEARCH_NAME = "ToolSearch";

/** One MCP server for one client connection (each HTTP session gets its own). */
export function createServeServer(session: Session): Server {
  const server = new Server(
    { name: "toolrt", version: packageJson.version },
    {
      capabilities: { tools: { listChanged: true } },
      instructions: "toolrt's policy-governed tools. Calls may be denied or need approval; " +
        `use ${TOOL_SEARCH_NAME} (when listed) to find more tools.`,
    },
  );
  // Deferred tools this client has found through ToolSearch; listed from then on.
  const discovered = new Set<string>();
  const unsubscribe = session.pool.onChange(() => void server.sendToolListChanged().catch(() => {}));
  server.onclose = unsubscribe;

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: listedTools(session.pool.current, discovered).map(toMcpTool),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const progressToken = request.params._meta?.progressToken;
    // A client that traces its agent turns says so in `_meta.traceparent`: the call's spans join it.
    const traceParent = parseTraceparent(request.params._meta?.traceparent);
    let progress = 0;
    const asker = elicitationAsker(server);
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
    return { content: outcome.content.map(toMcpContent), isError: outcome.isError };
  });
  return server;
}

/**
 * What a client is offered: with ToolSearch in the pool, the loaded tools plus the deferred ones
 * this client has found; without it, everything (a client could not find deferred tools otherwise).
 */
function listedTools(pool: AssembledPool, discovered: ReadonlySet<string>): AnyTool[] {
  if (!pool.byName.has(TOOL_SEARCH_NAME)) return [...pool.tools];
  return pool.tools.filter((t) => !isDeferredIn(pool, t) || discovered.has(t.name));
}

function toMcpTool(tool: AnyTool): McpTool {
  const schema = tool.inputJSONSchema();
  return {
    name: tool.name,
    description: tool.prompt(),
    inputSchema: { ...schema, type: "object" },
    annotations: annotationsOf(tool),
  };
}

/**
 * Annotations from the contract, fail-closed: a tool not read-only is announced as possibly
 * destructive and open-world unless it is a built-in that edits or reads local files.
 */
function annotationsOf(tool: AnyTool): ToolAnnotations {
  const described = toolLevelAnswers(tool);
  const local = tool.origin.kind === "builtin" && ["read", "edit", "orchestration"].includes(tool.category);
  return {
    title: tool.name,
    readOnlyHint: described.readOnly,
    destructiveHint: !described.readOnly,
    openWorldHint: !local,
  };
}

function toMcpContent(block: ContentBlock): McpContent {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", data: block.source.data, mimeType: block.source.media_type };
    case "tool_reference":
      return { type: "text", text: `Tool found: ${block.tool_name} (now listed; call it by name)` };
  }
}

const DECISIONS = ["allow-once", "allow-always", "deny"] as const;

/** Asks the client's user through MCP elicitation, when the client announced that capability. */
function elicitationAsker(server: Server): Asker | undefined {
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
    const answer = await server.elicitInput({
      message: lines.join("\n"),
      requestedSchema: {
        type: "object",
        properties: { decision: { type: "string", title: "Decision", enum: [...options] } },
        required: ["decision"],
      },
    });
    return answerOf(answer.action, answer.content?.decision, request.suggestions[0]);
  };
}

function answerOf(action: string, decision: unknown, rule: string | undefined): AskAnswer {
  if (action !== "accept") return { behavior: "deny", message: `the user chose to ${action} the request` };
  if (decision === "allow-once") return { behavior: "allow-once" };
  if (decision === "allow-always") return { behavior: "allow-always", ...(rule ? { rule } : {}) };
  return { behavior: "deny", message: "the user denied the call" };
}

/** Serves over stdin/stdout until the client disconnects (or closes our stdin). */
export async function serveStdio(session: Session): Promise<void> {
  const server = createServeServer(session);
  const closed = new Promise<void>((resolve) => {
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      resolve();
    };
    // The transport does not close on end of input: without this the process would just run out
    // of work and exit, and nothing after serving (closing sessions, the telemetry flush) would run.
    process.stdin.once("end", resolve);
  });
  await server.connect(new StdioServerTransport());
  await closed;
}

export interface ServeHttpOptions {
  host: string;
  port: number;
  token?: string;
}

/** Serves Streamable HTTP at `http://HOST:PORT/mcp`; returns the URL and a stop function. */
export function serveHttp(session: Session, options: ServeHttpOptions) {
  return startHttpEndpoint({ ...options, createServer: () => createServeServer(session) });
}
