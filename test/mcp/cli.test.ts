import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { parseListen } from "../../src/cli/serve.ts";
import { runCli } from "../helpers/cli.ts";
import { stdioConfig } from "./fixtures.ts";

let dir: string;
let workspace: string;
const MAIN = join(import.meta.dir, "../../src/cli/main.ts");
const env = () => ({ TOOLRT_MANAGED_MCP: join(dir, "managed.json"), XDG_CONFIG_HOME: join(dir, "config") });
const cli = (...args: string[]) =>
  runCli(["--cwd", workspace, "--state-dir", join(dir, "state"), ...args], { env: env() });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "toolrt-mcp-cli-"));
  workspace = join(dir, "ws");
  mkdirSync(workspace);
  writeFileSync(
    join(dir, "servers.json"),
    JSON.stringify({ mcpServers: { wb: stdioConfig("well-behaved"), dead: { command: "false" } } }),
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("toolrt mcp list", () => {
  test("each server's state and tool count, and why a failed one failed", () => {
    const run = cli("--mcp-config", join(dir, "servers.json"), "mcp", "list", "--json");
    expect(run.code).toBe(0);
    const statuses = JSON.parse(run.stdout) as {
      name: string;
      status: string;
      toolCount: number;
      reason?: string;
    }[];
    expect(statuses.map((s) => [s.name, s.status, s.toolCount])).toEqual([["wb", "connected", 8], [
      "dead",
      "failed",
      0,
    ]]);
    expect(statuses[1]?.reason).toContain("Connection closed");
    const human = cli("--mcp-config", join(dir, "servers.json"), "mcp", "list");
    expect(human.stdout).toMatch(/^wb\s+connected\s+8 tools {2}flag/m);
    expect(human.stdout).toContain("why: MCP error -32000: Connection closed");
  }, 60_000);

  test("a broken --mcp-config file exits 2 naming the file", () => {
    writeFileSync(join(dir, "broken.json"), JSON.stringify({ mcpServers: { x: { url: "nope" } } }));
    const run = cli("--mcp-config", join(dir, "broken.json"), "mcp", "list");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${join(dir, "broken.json")}:1:27: mcpServers.x.url`);
  });
});

describe("toolrt mcp approve", () => {
  test("a project server stays off until approved, and again after --revoke", () => {
    writeFileSync(
      join(workspace, ".mcp.json"),
      JSON.stringify({ mcpServers: { proj: stdioConfig("well-behaved") } }),
    );
    const before = JSON.parse(cli("mcp", "list", "--json").stdout);
    expect(before[0]).toMatchObject({ name: "proj", status: "disabled" });
    expect(before[0].reason).toContain("toolrt mcp approve proj");
    expect(cli("mcp", "approve").stdout).toStartWith("proj  not-approved  ");

    expect(cli("mcp", "approve", "proj").stdout).toStartWith("approved proj: ");
    expect(JSON.parse(cli("mcp", "list", "--json").stdout)[0]).toMatchObject({
      status: "connected",
      toolCount: 8,
    });

    cli("mcp", "approve", "--revoke", "proj");
    expect(JSON.parse(cli("mcp", "list", "--json").stdout)[0]).toMatchObject({ status: "disabled" });
    expect(cli("mcp", "approve", "nosuch").code).toBe(2);
  }, 60_000);
});

describe("toolrt serve", () => {
  test(
    "over stdio: deferred MCP tools are found through ToolSearch, then served; allowed by rule, or denied",
    async () => {
      const client = new Client({ name: "test", version: "1" });
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [
          MAIN,
          "--cwd",
          workspace,
          "--state-dir",
          join(dir, "state"),
          "--mcp-config",
          join(dir, "servers.json"),
        ]
          .concat(["--allow", "mcp__wb__echo", "serve", "--wait-for-servers", "30000"]),
        env: { ...process.env, ...env() } as Record<string, string>,
        stderr: "ignore",
      });
      await client.connect(transport);
      try {
        const before = (await client.listTools()).tools.map((t) => t.name);
        expect(before).toContain("ToolSearch");
        expect(before).not.toContain("mcp__wb__echo");
        const found = await client.callTool({
          name: "ToolSearch",
          arguments: { query: "select:mcp__wb__echo,mcp__wb__add", max_results: 5 },
        }) as CallToolResult;
        expect(JSON.stringify(found.content)).toContain("mcp__wb__echo");
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names).toContain("mcp__wb__echo");
        const echoed = await client.callTool({
          name: "mcp__wb__echo",
          arguments: { text: "hi" },
        }) as CallToolResult;
        expect(echoed).toMatchObject({ isError: false, content: [{ type: "text", text: "hi" }] });
        // readOnlyHint on the upstream `add` does not make it allowed.
        const added = await client.callTool({
          name: "mcp__wb__add",
          arguments: { a: 1, b: 2 },
        }) as CallToolResult;
        expect(added.isError).toBe(true);
        expect(JSON.stringify(added.content)).toContain("add an allow rule such as `mcp__wb__add`");
      } finally {
        await client.close();
      }
    },
    30_000,
  );

  test("--http off loopback needs --allow-remote and a token", () => {
    expect(cli("serve", "--http", "0.0.0.0:1").stderr).toContain(
      "not a loopback address; add --allow-remote",
    );
    const noToken = cli("serve", "--http", "0.0.0.0:1", "--allow-remote");
    expect([noToken.code, noToken.stderr.trim()]).toEqual([
      2,
      "toolrt: a bearer token is required: set TOOLRT_SERVE_TOKEN or pass --token TOKEN",
    ]);
  }, 60_000);

  test("--http needs a non-empty token; only --no-auth on loopback serves without one", () => {
    const refused = (args: string[], message: string) => {
      const run = cli("serve", ...args);
      expect([run.code, run.stderr.trim()]).toEqual([2, `toolrt: ${message}`]);
    };
    const orNoAuth = " (or --no-auth to serve this loopback address without one)";
    refused(
      ["--http", "0"],
      `a bearer token is required: set TOOLRT_SERVE_TOKEN or pass --token TOKEN${orNoAuth}`,
    );
    refused(
      ["--http", "0", "--token", ""],
      `the bearer token is empty: set TOOLRT_SERVE_TOKEN or pass --token TOKEN${orNoAuth}`,
    );
    refused(
      ["--http", "0", "--token", "  "],
      `the bearer token is empty: set TOOLRT_SERVE_TOKEN or pass --token TOKEN${orNoAuth}`,
    );
    refused(
      ["--http", "0.0.0.0:0", "--allow-remote", "--no-auth"],
      "--no-auth is for loopback addresses only; pass --token",
    );
    refused(
      ["--http", "0", "--no-auth", "--token", "t"],
      "--no-auth and --token contradict each other; pick one",
    );
    refused(["--token", "t"], "--token, --no-auth and --allow-remote apply to --http only");
    refused(["--deferred", "all"], '--deferred expects search or list, got "all"');
  }, 60_000);

  test("--no-auth on loopback serves without a token and says so", async () => {
    const serve = Bun.spawn(
      [
        process.execPath,
        MAIN,
        "--cwd",
        workspace,
        "--state-dir",
        join(dir, "state"),
        "serve",
        "--http",
        "0",
        "--no-auth",
      ],
      { stdout: "ignore", stderr: "pipe", env: { ...process.env, ...env() } },
    );
    try {
      let stderr = "";
      const reader = serve.stderr.getReader();
      while (!stderr.includes("listening on")) {
        stderr += new TextDecoder().decode((await reader.read()).value);
      }
      expect(stderr).toContain("--no-auth: any process on this machine can call these tools");
      const url = /listening on (\S+)/.exec(stderr)![1]!;
      const client = new Client({ name: "test", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("Read");
      await client.close();
    } finally {
      serve.kill("SIGTERM");
      expect(await serve.exited).toBe(0);
    }
  }, 60_000);

  test("--http accepts PORT, :PORT, HOST:PORT and [v6]:PORT", () => {
    expect(parseListen("8080")).toEqual({ host: "127.0.0.1", port: 8080 });
    expect(parseListen(":8080")).toEqual({ host: "127.0.0.1", port: 8080 });
    expect(parseListen("0.0.0.0:80")).toEqual({ host: "0.0.0.0", port: 80 });
    expect(parseListen("[::1]:80")).toEqual({ host: "::1", port: 80 });
    expect(() => parseListen("host")).toThrow("--http expects HOST:PORT or PORT");
  });
});
