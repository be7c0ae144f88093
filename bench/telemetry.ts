/**
 * What telemetry costs the calls it observes, with the compiled binary (dist/toolrt):
 * - a hook call deciding in its own process (`TOOLRT_NO_HOOK_HELPER=1`, the cold path every first
 *   call of a session pays), and answered by the resident helper (the usual path);
 * - `check --batch` throughput (commands per second) over a sample of the benign corpus;
 * each with telemetry off, on with a live collector, on with the endpoint down (nothing listens),
 * and on with a collector that accepts the connection and never answers. Wall time is what the
 * caller waits; CPU time (user + system of the child) is the work done, and moves far less than wall
 * time on a machine other jobs load.
 *
 *   bun run build.ts && bun bench/telemetry.ts        (TELEMETRY_BENCH_N: hook calls per case, default 60)
 */
import "./support/isolated-home.ts";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { benignCommands } from "../test/bash/benign-corpus.ts";
import { report, round, summarize } from "./support/lib.ts";

const ROOT = join(import.meta.dir, "..");
const TOOLRT = join(ROOT, "dist/toolrt");
if (!existsSync(TOOLRT)) throw new Error(`${TOOLRT} is missing (bun run build.ts)`);

const n = Number(process.env.TELEMETRY_BENCH_N ?? 60);
const corpus = benignCommands();
const sample = Array.from({ length: n }, (_, i) => corpus[Math.floor((i * corpus.length) / n)]!);
const batchSize = Math.min(corpus.length, 2_000);

let received = 0;
let receivedBytes = 0;
const live = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: async (request) => {
    receivedBytes += (await request.arrayBuffer()).byteLength;
    received++;
    return new Response("{}", { headers: { "content-type": "application/json" } });
  },
});
const hanging = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: () => new Promise<Response>(() => {}),
});
// A port nothing listens on: bind one, note it, close it.
const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
const downUrl = `http://127.0.0.1:${closed.port}`;
closed.stop(true);

const root = mkdtempSync(join(tmpdir(), "toolrt-otel-"));
const cwd = join(root, "work");
mkdirSync(cwd, { recursive: true });

const CASES = [
  ["off", {}],
  ["on, live collector", {
    TOOLRT_ENABLE_TELEMETRY: "1",
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${live.port}`,
  }],
  ["on, endpoint down", { TOOLRT_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: downUrl }],
  ["on, collector hangs", {
    TOOLRT_ENABLE_TELEMETRY: "1",
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${hanging.port}`,
  }],
] as const;

let dirs = 0;
/**
 * A fresh home and state dir per case, so no case inherits another's spool or helper (short names:
 * the helper's socket path must fit a socket address).
 */
function envFor(extra: Record<string, string>): Record<string, string> {
  const dir = join(root, String(dirs++));
  mkdirSync(join(dir, "home"), { recursive: true });
  return {
    PATH: process.env.PATH ?? "",
    HOME: join(dir, "home"),
    TOOLRT_HOME: join(dir, "state"),
    TOOLRT_MANAGED_POLICY: join(dir, "managed"),
    ...extra,
  };
}

interface Timed {
  wallMs: number;
  cpuMs: number;
}

async function hookCall(env: Record<string, string>, command: string): Promise<Timed> {
  const payload = JSON.stringify({
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    cwd,
  });
  const start = Bun.nanoseconds();
  const child = Bun.spawn([TOOLRT, "hook"], {
    cwd,
    env,
    stdin: new Blob([payload]),
    stdout: "ignore",
    stderr: "ignore",
  });
  await child.exited;
  return { wallMs: (Bun.nanoseconds() - start) / 1e6, cpuMs: cpuMsOf(child) };
}

function cpuMsOf(child: Bun.Subprocess): number {
  return Number(child.resourceUsage()?.cpuTime.total ?? 0n) / 1000;
}

function timedFigures(samples: Timed[]) {
  const wall = samples.map((s) => s.wallMs);
  const cpu = summarize(samples.map((s) => s.cpuMs));
  const s = summarize(wall);
  return {
    mean_ms: round(mean(wall), 2),
    median_ms: round(s.median, 2),
    p99_ms: round(s.p99, 2),
    cpu_median_ms: round(cpu.median, 2),
    n: s.n,
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const loadBefore = loadavg();

// Hook calls, in their own process: cases interleaved per command so load drifts hit all alike.
const inProcess = new Map<string, Timed[]>(CASES.map(([name]) => [name, []]));
const envs = new Map(
  CASES.map(([name, extra]) => [name, envFor({ ...extra, TOOLRT_NO_HOOK_HELPER: "1" })]),
);
for (const command of sample) {
  for (const [name] of CASES) inProcess.get(name)!.push(await hookCall(envs.get(name)!, command));
}
for (const [name, samples] of inProcess) {
  report("telemetry", { figure: "hook_in_own_process", telemetry: name, ...timedFigures(samples) });
}

// Hook calls answered by the resident helper (started by a warm-up call per case).
for (const [name, extra] of CASES) {
  const env = envFor(extra);
  await hookCall(env, "true");
  const socketUp = () =>
    existsSync(env.TOOLRT_HOME!) && readdirSync(env.TOOLRT_HOME!).some((f) => f.endsWith(".sock"));
  for (let waited = 0; !socketUp() && waited < 5_000; waited += 20) await Bun.sleep(20);
  const samples: Timed[] = [];
  for (const command of sample) samples.push(await hookCall(env, command));
  report("telemetry", {
    figure: "hook_resident_helper",
    telemetry: name,
    helper: socketUp() ? "running" : "none",
    ...timedFigures(samples),
  });
  rmSync(env.TOOLRT_HOME!, { recursive: true, force: true }); // the helper leaves when its socket goes
}

// check --batch throughput.
const batchFile = join(root, "commands.txt");
writeFileSync(batchFile, `${corpus.slice(0, batchSize).join("\n")}\n`);
for (const [name, extra] of CASES) {
  const env = envFor(extra);
  const start = Bun.nanoseconds();
  const child = Bun.spawn([TOOLRT, "check", "--batch", batchFile, "Bash"], {
    cwd,
    env,
    stdout: "ignore",
    stderr: "ignore",
  });
  await child.exited;
  const seconds = (Bun.nanoseconds() - start) / 1e9;
  report("telemetry", {
    figure: "check_batch",
    telemetry: name,
    commands: batchSize,
    seconds: round(seconds, 3),
    cpu_seconds: round(cpuMsOf(child) / 1000, 3),
    commands_per_second: Math.round(batchSize / seconds),
    exit: child.exitCode ?? -1,
  });
}

report("telemetry", { figure: "live_collector_received", requests: received, bytes: receivedBytes });
const loadAfter = loadavg();
report("telemetry", {
  figure: "load_average_1m",
  before: round(loadBefore[0]!, 2),
  after: round(loadAfter[0]!, 2),
});
live.stop(true);
hanging.stop(true);
rmSync(root, { recursive: true, force: true });
