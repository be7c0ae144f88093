/** The MCP client against the fixture servers, every fault over both stdio and Streamable HTTP. */
import { afterEach, describe, expect, test } from "bun:test";
import { parseServerConfig } from "../../src/mcp/config.ts";
import { McpManager } from "../../src/mcp/manager.ts";
import { ToolPool } from "../../src/pool/tool-pool.ts";
import type { ContentBlock } from "../../src/tool/messages.ts";
import { createToolContext } from "../../src/tool/context.ts";
import type { ToolContext } from "../../src/tool/types.ts";
import { entry, RemoteFixture, stdioConfig, type TransportKind, withTransport } from "./fixtures.ts";
import { eventually } from "../helpers/eventually.ts";

const FAST_RECONNECT = { baseDelayMs: 20, maxDelayMs: 200, maxAttempts: 100 };
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function ctx(): ToolContext {
  return createToolContext({
    cwd: process.cwd(),
    stateDir: "/nonexistent",
    mode: "default",
    invokedBy: "cli",
  });
}

async function connect(servers: Parameters<typeof entry>[], options: { callTimeoutMs?: number } = {}) {
  const manager = new McpManager(servers.map((s) => entry(...s)), {
    workspace: process.cwd(),
    reconnect: FAST_RECONNECT,
    callTimeoutMs: options.callTimeoutMs ?? 20_000,
    connectTimeoutMs: 20_000,
  });
  const pool = new ToolPool([], { mode: "default", denyRules: [] });
  manager.attach(pool);
  cleanups.push(() => manager.close());
  await manager.connectAll();
  const call = async (name: string, input: Record<string, unknown> = {}) => {
    const tool = pool.find(name);
    if (!tool) throw new Error(`${name} is not in the pool: ${pool.current.tools.map((t) => t.name)}`);
    const result = await tool.call(input, ctx(), () => {});
    return { isError: result.isError === true, text: textOf(tool.toContent(result.data, input)) };
  };
  return { manager, pool, call, status: (name: string) => manager.statuses().find((s) => s.name === name)! };
}

function textOf(content: ContentBlock[]): string {
  return content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join("");
}

for (const kind of ["stdio", "http"] as TransportKind[]) {
  describe(`over ${kind}`, () => {
    const start = async (...args: Parameters<typeof withTransport>) => {
      const fixture = await withTransport(...args);
      cleanups.push(fixture.stop);
      return fixture;
    };

    test("a well-behaved server: connected, its tools in the pool, deferred, calls work", async () => {
      const { config } = await start(kind, "well-behaved");
      const { pool, call, status } = await connect([["wb", config]]);
      expect(status("wb")).toMatchObject({ status: "connected", toolCount: 8, problems: [] });
      expect(pool.find("mcp__wb__odd_name")?.origin.originalName).toBe("odd.name");
      expect(pool.current.tools.every((t) => t.shouldDefer)).toBe(true);
      expect(await call("mcp__wb__echo", { text: "hi" })).toEqual({ isError: false, text: "hi" });
      expect(await call("mcp__wb__fail")).toEqual({ isError: true, text: "it did not work" });
      expect(await call("mcp__wb__pixel")).toEqual({ isError: false, text: "[image]" });
    });

    test("a large result is truncated in place with a notice", async () => {
      const { config } = await start(kind, "well-behaved");
      const { call } = await connect([["wb", config]]);
      const result = await call("mcp__wb__big", { chars: 200_000 });
      expect(result.text).toEndWith("[OUTPUT TRUNCATED - exceeded 25000 token limit]");
      expect(result.text.length).toBeLessThan(110_000);
    });

    test("a server that crashes mid-call: is_error, then it reconnects and its tools work again", async () => {
      const { config, http } = await start(kind, "crashing");
      const { call, status } = await connect([["c", config]]);
      const crashed = await call("mcp__c__crash");
      expect(crashed.isError).toBe(true);
      expect(crashed.text).toContain("connection was lost during the call");
      // Over stdio the process is respawned; over HTTP someone restarts the server.
      await http?.restart();
      expect(await call("mcp__c__echo", { text: "back" })).toEqual({ isError: false, text: "back" });
      expect(status("c").status).toBe("connected");
      expect(status("c").problems.some((p) => p.startsWith("connection lost"))).toBe(true);
    });

    test("a server that never answers: the call times out as is_error; the server stays usable", async () => {
      const { config } = await start(kind, "slow");
      const { call } = await connect([["slow", config]], { callTimeoutMs: 500 });
      const hung = await call("mcp__slow__hang");
      expect(hung.isError).toBe(true);
      expect(hung.text).toContain("no answer within 500 ms");
      expect(await call("mcp__slow__ping")).toEqual({ isError: false, text: "pong" });
    });

    test("malformed JSON-RPC and a schema-less tool are reported and skipped, not fatal", async () => {
      const { config } = await start(kind, "malformed");
      const { pool, call, status } = await connect([["bad", config]], { callTimeoutMs: 1_000 });
      expect(pool.current.tools.map((t) => t.name)).toEqual([
        "mcp__bad__a_b",
        "mcp__bad__garbage",
        "mcp__bad__ok",
      ]);
      expect(status("bad").problems).toEqual([
        "tool no_schema skipped: inputSchema: Invalid input: expected object, received undefined",
        "tool a_b skipped: its name a_b is taken by a.b",
      ]);
      const garbage = await call("mcp__bad__garbage");
      expect(garbage.isError).toBe(true);
      // stdio: the junk line is reported and the call times out; HTTP: the junk body fails the call.
      const reported = kind === "stdio" ? status("bad").problems.at(-1) : garbage.text;
      expect(reported).toMatch(/JSON/i);
      expect(await call("mcp__bad__ok")).toEqual({ isError: false, text: "ok ran" });
      expect(status("bad").status).toBe("connected");
    });

    test("list_changed rebuilds the pool through the one refresh path", async () => {
      const { config } = await start(kind, "changing");
      const { pool, call } = await connect([["ch", config]]);
      let rebuilds = 0;
      pool.onChange(() => rebuilds++);
      await call("mcp__ch__add_tool", { name: "fresh" });
      await eventually(() => pool.find("mcp__ch__fresh") !== undefined, "the added tool");
      expect(await call("mcp__ch__fresh")).toEqual({ isError: false, text: "fresh ran" });
      await call("mcp__ch__remove_tool", { name: "fresh" });
      await eventually(() => pool.find("mcp__ch__fresh") === undefined, "the removed tool to vanish");
      expect(rebuilds).toBeGreaterThanOrEqual(2);
    });

    test("resources: listed and read through the manager", async () => {
      const { config } = await start(kind, "well-behaved");
      const { manager } = await connect([["wb", config]]);
      expect(manager.hasResourceServers()).toBe(true);
      expect(await manager.listResources()).toMatchObject([{ server: "wb", uri: "fixture://readme" }]);
      const read = await manager.readResource("wb", "fixture://readme");
      expect(read.contents[0]).toMatchObject({ text: "the fixture's readme" });
    });
  });
}

describe("over http only", () => {
  test("HTTP 404 with -32001 (session expired): re-initialized and the call still succeeds", async () => {
    const http = await RemoteFixture.start("well-behaved");
    cleanups.push(() => http.stop());
    const { call, status } = await connect([["wb", http.config()]]);
    await call("mcp__wb__expire_session");
    expect(await call("mcp__wb__echo", { text: "after" })).toEqual({ isError: false, text: "after" });
    expect(status("wb").problems).toContain("session expired; initializing a new one");
  });

  test("HTTP 401: needs-auth, and a token in headers connects", async () => {
    const http = await RemoteFixture.start("well-behaved", ["--require-token", "s3cret"]);
    cleanups.push(() => http.stop());
    const { status } = await connect([["locked", http.config()], [
      "open",
      http.config({ Authorization: "Bearer s3cret" }),
    ]]);
    expect(status("locked").status).toBe("needs-auth");
    expect(status("locked").reason).toContain("requires authorization");
    expect(status("open").status).toBe("connected");
  });
});

describe("connecting", () => {
  test(
    "a slow server never delays the rest: the fast one is in the pool while the slow one still connects",
    async () => {
      const manager = new McpManager([
        entry("fast", stdioConfig("well-behaved")),
        entry("late", stdioConfig("slow", ["--start-delay", "60000"])),
      ], { workspace: process.cwd(), connectTimeoutMs: 30_000 });
      cleanups.push(() => manager.close());
      const pool = new ToolPool([], { mode: "default", denyRules: [] });
      manager.attach(pool);
      manager.startAll();
      await eventually(() => pool.find("mcp__fast__echo") !== undefined, "the fast server's tools");
      expect(manager.statuses().find((s) => s.name === "late")?.status).toBe("pending");
      expect(manager.unavailableReason("mcp__late__ping")).toMatch(
        /^MCP server late is still connecting \(for \d+ s; it gives up after 30 s\)\. Try again shortly$/,
      );
    },
    60_000,
  );

  test("a server's own connectTimeoutMs bounds its connecting, and the failure says so", async () => {
    const manager = new McpManager([
      entry("late", { ...stdioConfig("slow", ["--start-delay", "60000"]), connectTimeoutMs: 300 }),
    ], { workspace: process.cwd(), connectTimeoutMs: 30_000 });
    cleanups.push(() => manager.close());
    const [late] = await manager.connectAll();
    expect(late).toMatchObject({ status: "failed", reason: "did not finish connecting within 300 ms" });
    expect(manager.unavailableReason("mcp__late__ping")).toBe(
      "MCP server late failed: did not finish connecting within 300 ms",
    );
  }, 60_000);

  test("connect is memoized: concurrent callers share one client", async () => {
    const manager = new McpManager([entry("wb", stdioConfig("well-behaved"))], { workspace: process.cwd() });
    cleanups.push(() => manager.close());
    const connection = manager.connection("wb")!;
    await Promise.all([connection.connect(), connection.connect(), manager.connectAll()]);
    expect(connection.status).toBe("connected");
    expect(manager.statuses()[0]?.problems).toEqual([]);
  });

  test("a disabled server and a missing variable never start, and say why", async () => {
    const manager = new McpManager([
      { ...entry("off", stdioConfig("well-behaved")), disabledReason: "denied by managed policy" },
      entry("env", { type: "http", url: "http://127.0.0.1:1/${NOT_SET_ANYWHERE}", headers: {} }),
    ], { workspace: process.cwd(), env: {} });
    const statuses = await manager.connectAll();
    expect(statuses.map((s) => [s.status, s.reason])).toEqual([
      ["disabled", "denied by managed policy"],
      ["disabled", "environment variable not set: NOT_SET_ANYWHERE"],
    ]);
  });
});

describe("over WebSocket", () => {
  const start = async (name: "well-behaved" | "crashing" | "changing") => {
    const ws = await RemoteFixture.start(name, [], "ws");
    cleanups.push(() => ws.stop());
    return ws;
  };

  test("connected, its tools in the pool, calls work, structured content kept", async () => {
    const ws = await start("well-behaved");
    const { call, status, pool } = await connect([["wb", ws.config()]]);
    expect(status("wb")).toMatchObject({ status: "connected", transport: "ws", toolCount: 8 });
    expect(await call("mcp__wb__echo", { text: "over a socket" })).toEqual({
      isError: false,
      text: "over a socket",
    });
    const add = pool.find("mcp__wb__add")!;
    expect(add.title).toBe("Add two numbers");
    const result = await add.call({ a: 1, b: 2 }, ctx(), () => {});
    expect(add.structuredContent?.(result.data)).toEqual({ sum: 3 });
  });

  test("a server that crashes mid-call: is_error, then once it is back the connection is too", async () => {
    const ws = await start("crashing");
    const { call, status } = await connect([["c", ws.config()]]);
    expect((await call("mcp__c__crash")).text).toContain("connection was lost during the call");
    await ws.restart();
    expect(await call("mcp__c__echo", { text: "back" })).toEqual({ isError: false, text: "back" });
    expect(status("c").status).toBe("connected");
  });

  test("a ws:// url alone means a WebSocket server", () => {
    expect(parseServerConfig({ url: "ws://127.0.0.1:1/" }, "test")).toEqual({
      type: "ws",
      url: "ws://127.0.0.1:1/",
    });
    expect(() => parseServerConfig({ type: "ws", url: "http://x/" }, "test")).toThrow(
      "url must be a ws(s) URL",
    );
  });
});
