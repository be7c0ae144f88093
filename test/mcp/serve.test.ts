/**
 * `toolrt serve` driven by the SDK's own Client. The Session is the stand-in (blanket rules,
 * read-only runs, the rest asks) over a real ToolPool with fake tools; ToolSearch is a mock that
 * returns tool_reference blocks, as the real one will, since it is not in the pool yet.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { buildMcpBridgeTool, type McpToolDefinition } from "../../src/mcp/bridge-tool.ts";
import { annotationsOf, createServeServer, serveHttp, type ServeOptions } from "../../src/mcp/serve.ts";
import type { SearchScope } from "../../src/policy/policy.ts";
import { textBlock } from "../../src/tool/messages.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import type { AnyTool } from "../../src/tool/types.ts";
import { fakeTool, mcpTool } from "../helpers/fake-tools.ts";
import { eventually } from "../helpers/eventually.ts";
import { type CliRules, policySession } from "../helpers/policy-session.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const toolSearchMock = buildTool<{ query: string }, string[]>({
  name: "ToolSearch",
  description: "finds deferred tools",
  prompt: () => "Finds deferred tools: select:Name",
  inputSchema: z.object({ query: z.string() }),
  call: async ({ query }) => ({ data: query.replace(/^select:/, "").split(",") }),
  toContent: (names) => names.map((tool_name) => ({ type: "tool_reference" as const, tool_name })),
  isReadOnly: () => true,
});

const sessionWith = (tools: AnyTool[], rules: CliRules = {}) => policySession(tools, rules);

async function clientFor(
  session: ReturnType<typeof sessionWith>,
  answer?: (message: string) => ElicitResult,
  options: ServeOptions = {},
): Promise<Client> {
  const client = new Client({ name: "test", version: "1" }, {
    capabilities: answer ? { elicitation: {} } : {},
  });
  if (answer) client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createServeServer(session, options).connect(serverSide);
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return client;
}

const text = (result: unknown) =>
  (result as CallToolResult).content.map((b) => (b.type === "text" ? b.text : b.type)).join("");

const standardTools = () => [
  fakeTool("Look", { readOnly: true, category: "read" }),
  fakeTool("Change", { category: "edit" }),
  fakeTool("Forbidden"),
  mcpTool("srv", "deep"),
  toolSearchMock,
];

describe("toolrt serve", () => {
  test("lists the loaded tools with annotations from the contract; blanket-denied and deferred ones are absent", async () => {
    const client = await clientFor(sessionWith(standardTools(), { deny: ["Forbidden"] }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["Change", "Look", "ToolSearch"]);
    const look = tools.find((t) => t.name === "Look")!;
    expect(look.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      openWorldHint: false,
    });
    expect(tools.find((t) => t.name === "Change")!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(look.inputSchema).toMatchObject({ type: "object", properties: { value: { type: "string" } } });
  });

  test("an allowed call runs through the session", async () => {
    const client = await clientFor(sessionWith(standardTools()));
    const result = await client.callTool({ name: "Look", arguments: { value: "x" } });
    expect(result.isError).toBe(false);
    expect(text(result)).toBe("Look:x");
  });

  test("without elicitation an ask is a denial naming the rule that would allow it", async () => {
    const client = await clientFor(sessionWith(standardTools()));
    const result = await client.callTool({ name: "Change", arguments: { value: "x" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("Permission needed and nobody can answer");
    expect(text(result)).toContain("add an allow rule such as `Change`");
  });

  test("a blanket-denied tool cannot be called at all", async () => {
    const client = await clientFor(sessionWith(standardTools(), { deny: ["Forbidden"] }));
    const result = await client.callTool({ name: "Forbidden", arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("Forbidden is not available in this session: denied by Forbidden");
  });

  test("with elicitation the client's user decides: accept runs the call", async () => {
    const messages: string[] = [];
    const accepting = await clientFor(sessionWith(standardTools()), (message) => {
      messages.push(message);
      return { action: "accept", content: { decision: "allow-once" } };
    });
    const ran = await accepting.callTool({ name: "Change", arguments: { value: "y" } });
    expect([ran.isError, text(ran)]).toEqual([false, "Change:y"]);
    expect(messages[0]).toContain("toolrt asks before running Change");
  });

  // Whatever keeps an ask from a "yes", the model gets what the CLI gives: why it asked and the
  // rule that would allow it, in plain words.
  const refusals: [string, (message: string) => ElicitResult, string][] = [
    ["declined", () => ({ action: "decline" }), "Permission needed and the user declined it: "],
    [
      "cancelled",
      () => ({ action: "cancel" }),
      "Permission needed and the user dismissed the question without answering: ",
    ],
    [
      "denied in the form",
      () => ({ action: "accept", content: { decision: "deny" } }),
      "Permission needed and the user denied it: ",
    ],
    [
      "unanswerable (the client fails the elicitation)",
      () => {
        throw new Error("no person at this terminal");
      },
      "Permission needed and the MCP client could not ask its user (MCP error -32603: no person at this terminal): ",
    ],
  ];
  for (const [what, answer, opening] of refusals) {
    test(`an ask ${what} is an explained denial without internal tags`, async () => {
      const client = await clientFor(sessionWith(standardTools()), answer);
      const refused = await client.callTool({ name: "Change", arguments: { value: "y" } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toBe(
        `${opening}no rule allows this Change call, and it is not read-only inside the workspace. ` +
          "To allow it, add an allow rule such as `Change`.",
      );
    });
  }

  test("an unknown tool's error reaches the client without the <tool_use_error> wrapper", async () => {
    const client = await clientFor(sessionWith(standardTools()));
    const result = await client.callTool({ name: "Lok", arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("Error: No such tool available: Lok. Did you mean Look?");
  });

  test("a deferred tool found through ToolSearch is announced, listed and callable", async () => {
    const client = await clientFor(sessionWith(standardTools(), { allow: ["mcp__srv__deep"] }));
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    const found = await client.callTool({
      name: "ToolSearch",
      arguments: { query: "select:mcp__srv__deep" },
    });
    expect(text(found)).toContain("Tool found: mcp__srv__deep");
    await eventually(() => changed > 0, "a list_changed notification");
    expect(changed).toBeGreaterThan(0);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("mcp__srv__deep");
    const result = await client.callTool({ name: "mcp__srv__deep", arguments: { value: "z" } });
    expect([result.isError, text(result)]).toEqual([false, "mcp__srv__deep:z"]);
  });

  test("without ToolSearch in the pool every tool is listed, deferred ones included", async () => {
    const client = await clientFor(
      sessionWith([fakeTool("Look", { readOnly: true }), mcpTool("srv", "deep")]),
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["Look", "mcp__srv__deep"]);
  });

  test("a pool change reaches the client as list_changed", async () => {
    const session = sessionWith([fakeTool("Look", { readOnly: true })]);
    const client = await clientFor(session);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    session.pool.setSource("mcp:new", [mcpTool("new", "tool")]);
    await eventually(() => changed > 0, "a list_changed notification");
    expect(changed).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("mcp__new__tool");
  });
});

describe("deferred tools for clients that do not search", () => {
  const tools = () => [fakeTool("Look", { readOnly: true }), mcpTool("srv", "deep"), toolSearchMock];

  test("search (default): not listed until found, yet callable by exact name through the same policy", async () => {
    const client = await clientFor(sessionWith(tools()));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["Look", "ToolSearch"]);
    const denied = await client.callTool({ name: "mcp__srv__deep", arguments: { value: "z" } });
    expect([denied.isError, text(denied)]).toEqual([
      true,
      "Permission needed and nobody can answer: no rule allows this mcp__srv__deep call, and it is not " +
      "read-only inside the workspace. To allow it, add an allow rule such as `mcp__srv__deep`.",
    ]);
    const allowed = await clientFor(sessionWith(tools(), { allow: ["mcp__srv__deep"] }));
    const ran = await allowed.callTool({ name: "mcp__srv__deep", arguments: { value: "z" } });
    expect([ran.isError, text(ran)]).toEqual([false, "mcp__srv__deep:z"]);
  });

  test("list: every tool is listed, deferred ones included; a blanket deny still hides one", async () => {
    const client = await clientFor(sessionWith(tools()), undefined, { deferredTools: "list" });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      "Look",
      "ToolSearch",
      "mcp__srv__deep",
    ]);
    const denying = await clientFor(sessionWith(tools(), { deny: ["mcp__srv"] }), undefined, {
      deferredTools: "list",
    });
    expect((await denying.listTools()).tools.map((t) => t.name)).toEqual(["Look", "ToolSearch"]);
  });

  test("list offers only the deferred tools the policy's search scope lets be found", async () => {
    const scoped = (scope: SearchScope) =>
      clientFor(sessionWith([...tools(), mcpTool("other", "thing")]), undefined, {
        deferredTools: "list",
        searchScope: () => scope,
      });
    const onlySrv = await scoped({ builtins: true, mcp: true, servers: ["srv"], setBy: ["managed.json"] });
    expect((await onlySrv.listTools()).tools.map((t) => t.name)).toEqual([
      "Look",
      "ToolSearch",
      "mcp__srv__deep",
    ]);
    const noMcp = await scoped({ builtins: true, mcp: false, setBy: ["managed.json"] });
    expect((await noMcp.listTools()).tools.map((t) => t.name)).toEqual(["Look", "ToolSearch"]);
  });
});

describe("an upstream MCP tool's own metadata through serve", () => {
  const upstream = (annotations: McpToolDefinition["annotations"]) =>
    buildMcpBridgeTool(
      "up",
      {
        name: "stats",
        title: "Repository statistics",
        description: "Counts things",
        inputSchema: { type: "object", properties: {} },
        outputSchema: { type: "object", properties: { files: { type: "number" } }, required: ["files"] },
        ...(annotations ? { annotations } : {}),
      },
      async () => ({ data: { content: [textBlock('{"files":3}')], structuredContent: { files: 3 } } }),
      {
        alwaysLoad: true,
      },
    );

  test("title, hints, outputSchema and structuredContent arrive unchanged; read-only stays read-only", async () => {
    const client = await clientFor(
      sessionWith([upstream({ readOnlyHint: true, idempotentHint: true, openWorldHint: false })], {
        allow: ["mcp__up__stats"],
      }),
    );
    const [listed] = (await client.listTools()).tools;
    expect(listed).toMatchObject({
      name: "mcp__up__stats",
      title: "Repository statistics",
      outputSchema: { type: "object", properties: { files: { type: "number" } }, required: ["files"] },
      annotations: {
        title: "Repository statistics",
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    });
    const result = await client.callTool({ name: "mcp__up__stats", arguments: {} });
    expect(result).toMatchObject({ isError: false, structuredContent: { files: 3 } });
  });

  test("a hint never makes the export less careful than the source", () => {
    const exported = (a: McpToolDefinition["annotations"]) => annotationsOf(upstream(a));
    // Nothing said: possibly destructive, open world.
    expect(exported(undefined)).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    // Not read-only and explicitly not destructive: kept as said.
    expect(exported({ destructiveHint: false })).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
    });
    // Contradictory claims: the cautious one wins.
    expect(exported({ readOnlyHint: true, destructiveHint: true })).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
  });

  test("a source's readOnlyHint does not make the call allowed", async () => {
    const client = await clientFor(sessionWith([upstream({ readOnlyHint: true })]));
    const refused = await client.callTool({ name: "mcp__up__stats", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("add an allow rule such as `mcp__up__stats`");
  });
});

/** A bare Streamable HTTP client: POSTs only, never the optional GET stream. */
class PostOnlyClient {
  #session: string | undefined;
  constructor(readonly url: string, readonly token: string) {}

  /** POSTs one message; for a request, returns its response stream's messages as they come. */
  async post(message: Record<string, unknown>): Promise<AsyncGenerator<Record<string, unknown>>> {
    const response = await fetch(this.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${this.token}`,
        ...(this.#session ? { "mcp-session-id": this.#session, "mcp-protocol-version": "2025-06-18" } : {}),
      },
      body: JSON.stringify(message),
    });
    this.#session ??= response.headers.get("mcp-session-id") ?? undefined;
    expect(response.status).toBeLessThan(300);
    return sseMessages(response);
  }
}

async function* sseMessages(response: Response): AsyncGenerator<Record<string, unknown>> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join(
        "",
      );
      if (data) yield JSON.parse(data) as Record<string, unknown>;
    }
  }
}

describe("toolrt serve over HTTP", () => {
  test("an ask travels as elicitation on the POST response stream of the call it belongs to", async () => {
    const endpoint = serveHttp(sessionWith(standardTools()), { host: "127.0.0.1", port: 0, token: "t0ken" });
    cleanups.push(() => endpoint.stop());
    const client = new PostOnlyClient(endpoint.url, "t0ken");
    const init = await client.post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: { elicitation: {} },
        clientInfo: { name: "post-only", version: "1" },
      },
    });
    expect((await init.next()).value).toMatchObject({ id: 1, result: { serverInfo: { name: "toolrt" } } });
    await client.post({ jsonrpc: "2.0", method: "notifications/initialized" });

    const call = await client.post({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "Change", arguments: { value: "via-post" } },
    });
    const ask = (await call.next()).value!;
    expect(ask).toMatchObject({ method: "elicitation/create", params: { mode: "form" } });
    expect((ask.params as { message: string }).message).toContain("toolrt asks before running Change");
    await client.post({
      jsonrpc: "2.0",
      id: ask.id,
      result: { action: "accept", content: { decision: "allow-once" } },
    });
    expect((await call.next()).value).toMatchObject({
      id: 2,
      result: { isError: false, content: [{ type: "text", text: "Change:via-post" }] },
    });
  });

  test("a missing, malformed or wrong token gets a 401 saying what is missing, with a Bearer challenge", async () => {
    const endpoint = serveHttp(sessionWith(standardTools()), { host: "127.0.0.1", port: 0, token: "t0ken" });
    cleanups.push(() => endpoint.stop());
    const attempt = async (authorization?: string) => {
      const response = await fetch(endpoint.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
        body: "{}",
      });
      return [response.status, response.headers.get("www-authenticate"), (await response.text()).trim()];
    };
    const origin = "the token `toolrt serve` was started with (--token or $TOOLRT_SERVE_TOKEN)";
    expect(await attempt()).toEqual([
      401,
      'Bearer realm="toolrt"',
      `a bearer token is required: send the header 'Authorization: Bearer <token>' with ${origin}`,
    ]);
    const [, basicChallenge, basicBody] = await attempt("Basic dTpw");
    expect(basicChallenge).toStartWith('Bearer realm="toolrt", error="invalid_request"');
    expect(basicBody).toBe(`the Authorization header must be 'Bearer <token>' with ${origin}`);
    const [status, challenge, body] = await attempt("Bearer wrong");
    expect([status, body]).toEqual([
      401,
      `the bearer token is not the one this server accepts: use ${origin}`,
    ]);
    expect(challenge).toStartWith('Bearer realm="toolrt", error="invalid_token", error_description="');
  });

  test("an empty token is refused outright: it would let anyone in", () => {
    expect(() => serveHttp(sessionWith(standardTools()), { host: "127.0.0.1", port: 0, token: " " })).toThrow(
      "an empty bearer token would let anyone in",
    );
  });

  test("loopback endpoint with a bearer token: refused without it, served with it", async () => {
    const endpoint = serveHttp(sessionWith(standardTools()), { host: "127.0.0.1", port: 0, token: "t0ken" });
    cleanups.push(() => endpoint.stop());
    const connectWith = async (headers: Record<string, string>) => {
      const client = new Client({ name: "test", version: "1" });
      cleanups.push(() => client.close());
      await client.connect(
        new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers } }),
      );
      return client;
    };
    await expect(connectWith({})).rejects.toMatchObject({ code: 401 });
    await expect(connectWith({ Authorization: "Bearer wrong" })).rejects.toMatchObject({ code: 401 });
    const client = await connectWith({ Authorization: "Bearer t0ken" });
    const result = await client.callTool({ name: "Look", arguments: { value: "h" } });
    expect(text(result)).toBe("Look:h");
    expect((await fetch(endpoint.url.replace("/mcp", "/other"))).status).toBe(404);
  });
});
