/**
 * `toolrt serve` start-up and shutdown with one hung upstream configured (fixtures/mcp/hung.ts:
 * never answers, ignores EOF and SIGTERM) beside a well-behaved one: the time to answer
 * `initialize` and the first `tools/list` over stdio and over HTTP, and how long serve takes to be
 * gone once its input closes, on SIGTERM, and once its parent dies (stopping the hung server's
 * whole process group included: its input closed, 1 s, SIGTERM, 2 s, SIGKILL); and, for the
 * process alone, how long serve takes to exit after EOF with no upstream.
 */
import "./support/isolated-home.ts";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixtureArgv } from "../test/mcp/fixtures.ts";
import { INITIALIZE, isRunning, jsonLine, JsonLines, processesMarked } from "../test/mcp/processes.ts";
import { report, round, summarize } from "./support/lib.ts";

const RUNS = 5;
const MAIN = join(import.meta.dir, "..", "src", "cli", "main.ts");
const dir = mkdtempSync(join(tmpdir(), "toolrt-bench-serve-"));
const marker = `toolrt-bench-${process.pid}`;
const server = (argv: string[]) => ({ command: argv[0], args: [...argv.slice(1), "--marker", marker] });
writeFileSync(
  join(dir, "servers.json"),
  JSON.stringify({
    mcpServers: { wb: server(fixtureArgv("well-behaved")), hung: server(fixtureArgv("hung")) },
  }),
);
writeFileSync(join(dir, "none.json"), JSON.stringify({ mcpServers: {} }));
const globalsWith = (
  servers: string,
) => ["--cwd", dir, "--state-dir", join(dir, "state"), "--mcp-config", join(dir, servers)];
const globals = globalsWith("servers.json");
const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };
const ms = (since: number) => (Bun.nanoseconds() - since) / 1e6;

function figure(name: string, samples: number[], extra: Record<string, number | string> = {}) {
  const s = summarize(samples);
  report(name, { median_ms: round(s.median, 1), max_ms: round(Math.max(...samples), 1), n: s.n, ...extra });
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await Bun.sleep(10);
}

type Stop = "eof" | "sigterm" | "parent";

/**
 * One stdio serve: initialize and tools/list latency, then the time to be gone after `stop`.
 * `upstreams`: with the hung and well-behaved servers (default), or none.
 */
async function stdioRun(stop: Stop, upstreams = true) {
  const started = Bun.nanoseconds();
  // For "parent", serve runs under a parent process that is then SIGKILLed; its stdin stays open.
  const argv = [process.execPath, MAIN, ...(upstreams ? globals : globalsWith("none.json")), "serve"];
  const proc = Bun.spawn(stop === "parent" ? [...fixtureArgv("parent"), ...argv] : argv, {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
  });
  const lines = new JsonLines(proc.stdout);
  proc.stdin.write(jsonLine(INITIALIZE));
  await proc.stdin.flush();
  await lines.next((m) => m.id === 1);
  const initialize = ms(started);
  proc.stdin.write(jsonLine(INITIALIZED) + jsonLine(LIST));
  await proc.stdin.flush();
  const listStart = Bun.nanoseconds();
  const listed = await lines.next((m) => m.id === 2);
  const list = ms(listStart);
  const tools = (listed.result as { tools: unknown[] }).tools.length;
  lines.release();

  // Wait until the hung server runs, so stopping it is part of the figure.
  if (upstreams) await until(() => processesMarked(marker).length >= 3);
  const serve = stop === "parent"
    ? processesMarked(dir).find((p) => p.ppid === proc.pid && p.args.includes(" serve"))!.pid
    : proc.pid;
  const stopping = Bun.nanoseconds();
  if (stop === "eof") proc.stdin.end();
  if (stop === "sigterm") proc.kill("SIGTERM");
  if (stop === "parent") proc.kill("SIGKILL");
  await until(() => !isRunning(serve));
  const gone = ms(stopping);
  const left = processesMarked(marker).length;
  if (stop === "parent") proc.stdin.end();
  return { initialize, list, tools, gone, left };
}

async function httpRun() {
  const started = Bun.nanoseconds();
  const proc = Bun.spawn([process.execPath, MAIN, ...globals, "serve", "--http", "0", "--token", "bench"], {
    stdout: "ignore",
    stderr: "pipe",
  });
  let stderr = "";
  const reader = proc.stderr.getReader();
  while (!stderr.includes("listening on")) stderr += new TextDecoder().decode((await reader.read()).value);
  const url = /listening on (\S+)/.exec(stderr)![1]!;
  const listening = ms(started);
  const post = (message: unknown, session?: string) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: "Bearer bench",
        ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" } : {}),
      },
      body: JSON.stringify(message),
    });
  const initStart = Bun.nanoseconds();
  const init = await post(INITIALIZE);
  await init.text();
  const initialize = ms(initStart);
  const session = init.headers.get("mcp-session-id")!;
  await (await post(INITIALIZED, session)).text();
  const listStart = Bun.nanoseconds();
  const body = await (await post(LIST, session)).text();
  const list = ms(listStart);
  const tools = (JSON.parse(body.split("\n").find((l) => l.startsWith("data:"))!.slice(5)) as {
    result: { tools: unknown[] };
  }).result.tools.length;
  const stopping = Bun.nanoseconds();
  proc.kill("SIGTERM");
  await proc.exited;
  return { listening, initialize, list, tools, gone: ms(stopping), left: processesMarked(marker).length };
}

try {
  for (const stop of ["eof", "sigterm", "parent"] as const) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await stdioRun(stop));
    if (stop === "eof") {
      figure("mcp.serve_stdio.hung_upstream.initialize", runs.map((r) => r.initialize), {
        note: "from spawn, start-up of the CLI included",
      });
      figure("mcp.serve_stdio.hung_upstream.tools_list", runs.map((r) => r.list), {
        tools_listed: runs.map((r) => r.tools).join(","),
      });
    }
    figure(`mcp.serve_stdio.exit_after_${stop}`, runs.map((r) => r.gone), {
      upstream_processes_left: runs.reduce((n, r) => n + r.left, 0),
    });
  }
  const bare = [];
  for (let i = 0; i < RUNS; i++) bare.push(await stdioRun("eof", false));
  figure("mcp.serve_stdio.no_upstream.exit_after_eof", bare.map((r) => r.gone));
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await httpRun());
  figure("mcp.serve_http.hung_upstream.initialize", runs.map((r) => r.initialize));
  figure("mcp.serve_http.hung_upstream.tools_list", runs.map((r) => r.list), {
    tools_listed: runs.map((r) => r.tools).join(","),
  });
  figure("mcp.serve_http.exit_after_sigterm", runs.map((r) => r.gone), {
    upstream_processes_left: runs.reduce((n, r) => n + r.left, 0),
  });
} finally {
  for (const left of processesMarked(marker)) process.kill(left.pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
}
