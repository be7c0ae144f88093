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
import { createServeServer, serveHttp } from "../../src/mcp/serve.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import type { AnyTool } from "../../src/tool/types.ts";
import { fakeTool, mcpTool } from "../helpers/fake-tools.ts";
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
): Promise<Client> {
  const client = new Client({ name: "test", version: "1" }, {
    capabilities: answer ? { elicitation: {} } : {},
  });
  if (answer) client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createServeServer(session).connect(serverSide);
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

  test("with elicitation the client's user decides: accept runs the call, decline denies it", async () => {
    const messages: string[] = [];
    const accepting = await clientFor(sessionWith(standardTools()), (message) => {
      messages.push(message);
      return { action: "accept", content: { decision: "allow-once" } };
    });
    const ran = await accepting.callTool({ name: "Change", arguments: { value: "y" } });
    expect([ran.isError, text(ran)]).toEqual([false, "Change:y"]);
    expect(messages[0]).toContain("toolrt asks before running Change");

    const declining = await clientFor(sessionWith(standardTools()), () => ({ action: "decline" }));
    const refused = await declining.callTool({ name: "Change", arguments: { value: "y" } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("decline");
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
    const deadline = Date.now() + 10_000;
    while (changed === 0 && Date.now() < deadline) await Bun.sleep(10);
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
    const deadline = Date.now() + 10_000;
    while (changed === 0 && Date.now() < deadline) await Bun.sleep(10);
    expect(changed).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("mcp__new__tool");
  });
});

describe("toolrt serve over HTTP", () => {
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
