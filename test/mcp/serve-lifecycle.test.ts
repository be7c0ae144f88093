/**
 * `toolrt serve` over stdio as a real process with real upstream servers: a well-behaved one, one
 * still starting, and one that hangs (never answers, ignores EOF and SIGTERM, has a child of its
 * own). Whatever way serve ends — its input closing, SIGTERM, SIGINT, its parent dying, or a crash
 * of a process holding the servers — no upstream process may be left running.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixtureArgv, scratchCli } from "./fixtures.ts";
import { eventually } from "../helpers/eventually.ts";
import {
  INITIALIZE,
  isRunning,
  jsonLine,
  JsonLines,
  killLeftovers,
  newMarker,
  processesMarked,
} from "./processes.ts";

const MAIN = join(import.meta.dir, "../../src/cli/main.ts");
/** A hang detector, not a speed bound: stopping the hung server alone takes two grace periods. */
const LIMIT_MS = 60_000;
/** wb, slow (still sleeping before it starts), hung and hung's child. */
const UPSTREAM_PROCESSES = 4;

let dir: string;
let marker: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "toolrt-serve-life-"));
  mkdirSync(join(dir, "ws"));
  marker = newMarker();
  const server = (argv: string[]) => ({ command: argv[0], args: [...argv.slice(1), "--marker", marker] });
  writeFileSync(
    join(dir, "servers.json"),
    JSON.stringify({
      mcpServers: {
        wb: server(fixtureArgv("well-behaved")),
        slow: server(fixtureArgv("slow", ["--start-delay", "600000"])),
        hung: server(fixtureArgv("hung")),
      },
    }),
  );
});

afterEach(() => {
  killLeftovers(processesMarked(marker));
  rmSync(dir, { recursive: true, force: true });
});

const serveArgv = () => [process.execPath, MAIN, ...scratchCli(dir).globals, "serve"];
const env = () => ({ ...process.env, ...scratchCli(dir).env });

/** Starts serve, initializes it, and waits until every upstream process runs. */
async function startServe() {
  const serve = Bun.spawn(serveArgv(), { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: env() });
  const lines = new JsonLines(serve.stdout);
  serve.stdin.write(jsonLine(INITIALIZE));
  await serve.stdin.flush();
  const answer = await lines.next((m) => m.id === 1);
  expect(answer.result).toBeDefined();
  await eventually(
    () => processesMarked(marker).length >= UPSTREAM_PROCESSES,
    "the upstream servers to start",
  );
  return { serve, lines };
}

async function expectNoOrphans(): Promise<void> {
  // The processes were signalled before the exit; the kernel may take a moment to tear them down
  // (SIGKILL is asynchronous), so the check waits for that before it lists what is left.
  await eventually(() => processesMarked(marker).length === 0, "the upstream processes to be gone", 10_000)
    .catch(() => {});
  const left = processesMarked(marker);
  expect(left.map((p) => `${p.pid} (ppid ${p.ppid}): ${p.args}`)).toEqual([]);
}

describe("toolrt serve over stdio ends, and leaves no upstream process behind", () => {
  test("when its input closes (EOF): it exits 0", async () => {
    const { serve } = await startServe();
    serve.stdin.end();
    expect(await serve.exited).toBe(0);
    await expectNoOrphans();
  }, LIMIT_MS);

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`on ${signal}, while servers are still connecting`, async () => {
      const { serve } = await startServe();
      serve.kill(signal);
      expect(await serve.exited).toBe(0);
      await expectNoOrphans();
    }, LIMIT_MS);
  }

  test("when its parent dies while its input stays open", async () => {
    // The test keeps the parent's stdin (which serve inherits) open: only the parent's death tells.
    const parent = Bun.spawn([...fixtureArgv("parent"), ...serveArgv()], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "ignore",
      env: env(),
    });
    const lines = new JsonLines(parent.stdout);
    parent.stdin.write(jsonLine(INITIALIZE));
    await parent.stdin.flush();
    expect((await lines.next((m) => m.id === 1)).result).toBeDefined();
    await eventually(
      () => processesMarked(marker).length >= UPSTREAM_PROCESSES,
      "the upstream servers to start",
    );
    const serve = processesMarked(dir).find((p) => p.ppid === parent.pid && p.args.includes(" serve"));
    expect(serve).toBeDefined();

    parent.kill("SIGKILL");
    await parent.exited;
    await eventually(() => !isRunning(serve!.pid), "serve to notice its parent is gone and exit");
    await expectNoOrphans();
    parent.stdin.end();
  }, LIMIT_MS);

  test("a process holding MCP servers that crashes (uncaught exception) takes them with it", async () => {
    const host = Bun.spawn([...fixtureArgv("crash-host"), "--mcp-config", join(dir, "servers.json")], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "ignore",
    });
    const reader = host.stdout.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toStartWith("started");
    await eventually(
      () => processesMarked(marker).length >= UPSTREAM_PROCESSES,
      "the upstream servers to start",
    );
    host.stdin.write("crash\n");
    await host.stdin.flush();
    expect(await host.exited).not.toBe(0);
    await expectNoOrphans();
  }, LIMIT_MS);
});
