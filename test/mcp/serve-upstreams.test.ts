/**
 * `toolrt serve` (the real CLI over stdio, driven by the SDK's Client) in front of real upstream
 * servers: one that hangs must not hold the client up, one that is slow joins later with
 * list_changed, and what an upstream says about its tools reaches the client unchanged.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type CallToolResult, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { runCli } from "../helpers/cli.ts";
import { fixtureArgv, scratchCli, stdioConfig } from "./fixtures.ts";
import { eventually } from "../helpers/eventually.ts";

const MAIN = join(import.meta.dir, "../../src/cli/main.ts");
let dir: string;
const clients: Client[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "toolrt-serve-up-"));
  mkdirSync(join(dir, "ws"));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => scratchCli(dir).env;
const globals = () => scratchCli(dir).globals;

function writeServers(servers: Record<string, unknown>): void {
  writeFileSync(join(dir, "servers.json"), JSON.stringify({ mcpServers: servers }));
}

async function serve(...args: string[]): Promise<Client> {
  const client = new Client({ name: "test", version: "1" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, ...globals(), ...args],
    env: { ...process.env, ...env() } as Record<string, string>,
    stderr: "ignore",
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const text = (result: unknown) =>
  (result as CallToolResult).content.map((b) => (b.type === "text" ? b.text : b.type)).join("");

const hungServer = (timeoutMs: number) => {
  const [command, ...args] = fixtureArgv("hung");
  return { command, args, connectTimeoutMs: timeoutMs };
};

describe("toolrt serve with a hung and a slow upstream", () => {
  test(
    "answers at once with what is connected; a slow server joins with list_changed; a pending or failed one's tools say why",
    async () => {
      writeServers({
        hung: hungServer(10_000),
        slow: stdioConfig("slow", ["--start-when", join(dir, "go")]),
      });
      const client = await serve("--allow", "mcp__slow__ping", "serve", "--deferred", "list");
      let changed = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);

      // Neither upstream is connected yet: the answer is the built-ins.
      const first = (await client.listTools()).tools.map((t) => t.name);
      expect(first).toContain("Read");
      expect(first.filter((name) => name.startsWith("mcp__"))).toEqual([]);
      const pending = await client.callTool({ name: "mcp__hung__anything", arguments: {} });
      expect(pending.isError).toBe(true);
      expect(text(pending)).toMatch(
        /^Error: mcp__hung__anything cannot be called now: MCP server hung is still connecting \(for \d+ s; it gives up after 10 s\)\. Try again shortly\.$/,
      );

      // The slow server comes up now: a list_changed follows, and its tools are listed.

      writeFileSync(join(dir, "go"), "");

      await eventually(() => changed > 0, "a list_changed notification");
      const listed = async () => (await client.listTools()).tools.map((t) => t.name);
      await eventually(async () => (await listed()).includes("mcp__slow__ping"), "the slow server's tools");
      expect(await client.callTool({ name: "mcp__slow__ping", arguments: {} })).toMatchObject({
        isError: false,
        content: [{ type: "text", text: "pong" }],
      });

      // The hung one gives up after its own timeout, and its tools' error says so.
      const hungError = async () =>
        text(await client.callTool({ name: "mcp__hung__anything", arguments: {} }));
      await eventually(async () => (await hungError()).includes("failed"), "the hung server to time out");
      expect(await hungError()).toBe(
        "Error: mcp__hung__anything cannot be called now: MCP server hung failed: did not finish connecting within 10000 ms.",
      );
    },
    60_000,
  );

  test("mcp list says once why a server failed: no duplicate transport noise", () => {
    writeServers({ hung: hungServer(300), wb: stdioConfig("well-behaved") });
    const run = runCli([...globals(), "mcp", "list"], { env: env() });
    expect(run.code).toBe(0);
    const hungLines = run.stdout.split("\n").filter((line) => !line.startsWith("wb"));
    expect(hungLines.join("\n").trim()).toMatch(
      /^hung\s+failed\s+0 tools\s+flag\s+\S+ \S+hung\.ts\n\s+why: did not finish connecting within 300 ms$/,
    );
    expect(run.stdout + run.stderr).not.toContain("cancellation");
  }, 60_000);
});

describe("an upstream tool's title, annotations, output schema and structured result, end to end", () => {
  test(
    "through toolrt serve: listed as the upstream said (read-only stays read-only), the call keeps structuredContent",
    async () => {
      writeServers({ wb: stdioConfig("well-behaved") });
      const client = await serve(
        "--allow",
        "mcp__wb__add",
        "serve",
        "--deferred",
        "list",
        "--wait-for-servers",
        "30000",
      );
      const add = (await client.listTools()).tools.find((t) => t.name === "mcp__wb__add");
      expect(add).toMatchObject({
        title: "Add two numbers",
        outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
        annotations: {
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
      });
      const result = await client.callTool({ name: "mcp__wb__add", arguments: { a: 2, b: 3 } });
      expect(result).toMatchObject({ isError: false, structuredContent: { sum: 5 } });
      expect(text(result)).toBe('{\n  "sum": 5\n}');
    },
    30_000,
  );

  test("through toolrt run --json: structured_content beside the content", () => {
    writeServers({ wb: stdioConfig("well-behaved") });
    const run = runCli([
      ...globals(),
      "--allow",
      "mcp__wb__add",
      "run",
      "--json",
      "mcp__wb__add",
      '{"a":2,"b":3}',
    ], {
      env: env(),
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ is_error: false, structured_content: { sum: 5 } });
  }, 60_000);
});
