/**
 * MCP figures: the overhead of a call through `toolrt serve` against the same call in process,
 * and the time from a fixture server's restart to its tools being callable again.
 */
import "./support/isolated-home.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpManager } from "../src/mcp/manager.ts";
import { createServeServer, serveHttp } from "../src/mcp/serve.ts";
import { ToolPool } from "../src/pool/tool-pool.ts";
import { fakeTool } from "../test/helpers/fake-tools.ts";
import { policySession } from "../test/helpers/policy-session.ts";
import { entry, RemoteFixture, stdioConfig } from "../test/mcp/fixtures.ts";
import { report, round, summarize, timeRuns } from "./support/lib.ts";

const CALLS = 300;
const session = (pool: ToolPool) => policySession(pool, { allow: ["Echo", "mcp__wb"] });

function figure(name: string, samples: number[], extra: Record<string, number | string> = {}) {
  const s = summarize(samples);
  report(name, { median_ms: round(s.median), p99_ms: round(s.p99), n: s.n, ...extra });
  return s.median;
}

async function timedClientCalls(client: Client, name: string, args: Record<string, unknown>) {
  return timeRuns(CALLS, () => client.callTool({ name, arguments: args }), 20);
}

// A trivial in-process tool: the figures are the cost of the road, not of the tool.
{
  const local = session(new ToolPool([fakeTool("Echo")], { mode: "default", denyRules: [] }));
  const call = { id: "b", name: "Echo", input: { value: "x" } };
  const inProcess = figure("mcp.call.in_process", await timeRuns(CALLS, () => local.execute(call), 20));

  const memoryClient = new Client({ name: "bench", version: "1" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createServeServer(local).connect(serverSide);
  await memoryClient.connect(clientSide);
  const memory = figure(
    "mcp.call.serve_in_memory",
    await timedClientCalls(memoryClient, "Echo", { value: "x" }),
  );
  report("mcp.call.serve_in_memory.overhead", { overhead_ms: round(memory - inProcess) });
  await memoryClient.close();

  const endpoint = serveHttp(local, { host: "127.0.0.1", port: 0 });
  const httpClient = new Client({ name: "bench", version: "1" });
  await httpClient.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
  const http = figure("mcp.call.serve_http", await timedClientCalls(httpClient, "Echo", { value: "x" }));
  report("mcp.call.serve_http.overhead", { overhead_ms: round(http - inProcess) });
  await httpClient.close();
  await endpoint.stop();
}

// An MCP fixture's tool: in process through the bridge, and through `toolrt serve` over stdio.
{
  const manager = new McpManager([entry("wb", stdioConfig("well-behaved"))], { workspace: process.cwd() });
  const pool = new ToolPool([], { mode: "default", denyRules: [] });
  manager.attach(pool);
  await manager.connectAll();
  const local = session(pool);
  const call = { id: "b", name: "mcp__wb__echo", input: { text: "x" } };
  const inProcess = figure(
    "mcp.bridged_call.in_process",
    await timeRuns(CALLS, () => local.execute(call), 20),
  );
  await manager.close();

  const dir = mkdtempSync(join(tmpdir(), "toolrt-bench-"));
  const config = join(dir, "servers.json");
  await Bun.write(config, JSON.stringify({ mcpServers: { wb: stdioConfig("well-behaved") } }));
  const client = new Client({ name: "bench", version: "1" });
  const main = join(import.meta.dir, "..", "src", "cli", "main.ts");
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        main,
        ...["--cwd", dir, "--state-dir", join(dir, "state"), "--mcp-config", config, "--allow", "mcp__wb"],
        ...["serve", "--wait-for-servers", "30000"],
      ],
      stderr: "ignore",
    }),
  );
  // The first tools/list waits for the fixture to connect; the calls then go to a live server.
  await client.listTools();
  const served = figure(
    "mcp.bridged_call.serve_stdio",
    await timedClientCalls(client, "mcp__wb__echo", { text: "x" }),
  );
  report("mcp.bridged_call.serve_stdio.overhead", { overhead_ms: round(served - inProcess) });
  await client.close();
  rmSync(dir, { recursive: true, force: true });
}

// Restart → callable: crash the server mid-call, then time until a call succeeds again. Over
// stdio the clock starts at the crash (toolrt respawns the server); over HTTP it starts once the
// restarted server listens, so it includes the wait for the next backoff attempt.
const RESTARTS = 5;
const reconnect = { baseDelayMs: 50, maxDelayMs: 1_000, maxAttempts: 100 };
for (const kind of ["stdio", "http"] as const) {
  const http = kind === "http" ? await RemoteFixture.start("crashing") : undefined;
  const manager = new McpManager([entry("c", http ? http.config() : stdioConfig("crashing"))], {
    workspace: process.cwd(),
    reconnect,
  });
  const pool = new ToolPool([], { mode: "default", denyRules: [] });
  manager.attach(pool);
  await manager.connectAll();
  const local = session(pool);
  const samples: number[] = [];
  for (let i = 0; i < RESTARTS; i++) {
    await local.execute({ id: "c", name: "mcp__c__crash", input: {} }, {
      ask: async () => ({ behavior: "allow-once" }),
    });
    // Over stdio toolrt respawns the server itself; over HTTP the server is restarted by hand.
    await http?.restart();
    const restarted = Bun.nanoseconds();
    const echoed = await local.execute({ id: "e", name: "mcp__c__echo", input: { text: "x" } }, {
      ask: async () => ({ behavior: "allow-once" }),
    });
    if (echoed.isError) throw new Error(`not callable after restart: ${JSON.stringify(echoed.content)}`);
    samples.push((Bun.nanoseconds() - restarted) / 1e6);
  }
  figure(`mcp.restart_to_callable.${kind}`, samples, { backoff_base_ms: reconnect.baseDelayMs });
  await manager.close();
  http?.stop();
}
