/**
 * The resident helper: the same answers as the hook process, only over a socket this user alone
 * may open, only for its own build, and gone when idle or displaced.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { askHelper } from "../../src/hook/resident/client.ts";
import { serveHelper } from "../../src/hook/resident/helper.ts";
import { DECISION_ENV, type HelperRequest, helperSocket } from "../../src/hook/resident/socket.ts";
import { benignCommands } from "../bash/benign-corpus.ts";
import { tempDir } from "../helpers/session-context.ts";
import { hookWorkspace } from "./workspace.ts";

const BUILD = "build-a";
const UID = process.getuid!();
const running: { socket: string; stopped: Promise<void> }[] = [];

afterEach(async () => {
  for (const helper of running.splice(0)) {
    Bun.spawnSync(["rm", "-f", helper.socket]);
    await helper.stopped;
  }
});

/** A helper on a fresh socket answering with `answer`, checking its socket every 10 ms. */
async function startHelper(answer: (request: HelperRequest) => Promise<string>, idleMs = 60_000) {
  const socket = join(tempDir("toolrt-helper-"), "state", "hook.sock");
  const stopped = serveHelper({ socket, build: BUILD, answer, idleMs, checkMs: 10 });
  running.push({ socket, stopped });
  while (!existsSync(socket)) await Bun.sleep(2);
  return { socket, stopped };
}

const request = (stdin: string, build = BUILD): HelperRequest => ({
  build,
  host: "claude-code",
  sandbox: false,
  cwd: "/",
  stdin,
});
const pre = (cwd: string, tool: string, input: unknown) =>
  JSON.stringify({ hook_event_name: "PreToolUse", cwd, tool_name: tool, tool_input: input });

test("answers through the helper are the hook's answers, byte for byte", async () => {
  const ws = hookWorkspace();
  const { socket } = await startHelper((r) => ws.run(r.host, r.stdin));
  const corpus = benignCommands();
  const sample = Array.from({ length: 200 }, (_, i) => corpus[Math.floor((i * corpus.length) / 200)]!);
  const payloads = [
    ...sample.map((command) => pre(ws.cwd, "Bash", { command })),
    pre(ws.cwd, "Bash", { command: "git push --force origin main" }),
    pre(ws.cwd, "Bash", { command: "rm -rf /" }),
    pre(ws.cwd, "Edit", { file_path: join(ws.cwd, "secrets/key"), old_string: "a", new_string: "b" }),
    "not json",
  ];
  for (const stdin of payloads) {
    const direct = await ws.run("claude-code", stdin);
    expect(await askHelper(socket, request(stdin), UID), stdin).toEqual({ answer: direct });
  }
}, 60_000);

describe("no answer, and the caller decides itself", () => {
  const answer = async () => "from the helper";

  test("no socket, or no state dir yet: start one", async () => {
    expect(await askHelper(join(tempDir(), "none.sock"), request("{}"), UID)).toEqual({ start: true });
    expect(await askHelper(join(tempDir(), "state", "none.sock"), request("{}"), UID)).toEqual({
      start: true,
    });
  });

  test("a socket nobody listens on: start one", async () => {
    const stale = join(tempDir(), "stale.sock");
    const child = Bun.spawn([
      process.execPath,
      "-e",
      `require("node:net").createServer().listen(${JSON.stringify(stale)})`,
    ]);
    while (!existsSync(stale)) await Bun.sleep(2);
    child.kill("SIGKILL");
    await child.exited;
    chmodSync(stale, 0o600);
    expect(await askHelper(stale, request("{}"), UID)).toEqual({ start: true });
  });

  test("a socket others may open is not used", async () => {
    const { socket } = await startHelper(answer);
    expect(await askHelper(socket, request("{}"), UID)).toEqual({ answer: "from the helper" });
    chmodSync(socket, 0o666);
    expect(await askHelper(socket, request("{}"), UID)).toEqual({ start: false });
  });

  test("no socket in a directory others may write is used, nor started", async () => {
    const { socket } = await startHelper(answer);
    chmodSync(join(socket, ".."), 0o777);
    expect(await askHelper(socket, request("{}"), UID)).toEqual({ start: false });
    expect(await askHelper(join(socket, "..", "none.sock"), request("{}"), UID)).toEqual({ start: false });
    chmodSync(join(socket, ".."), 0o700);
  });

  test("a socket another user owns is not used", async () => {
    const { socket } = await startHelper(answer);
    expect(await askHelper(socket, request("{}"), UID + 1)).toEqual({ start: false });
  });

  test("a file that is not a socket is not used", async () => {
    const file = join(tempDir(), "hook.sock");
    writeFileSync(file, "", { mode: 0o600 });
    expect(await askHelper(file, request("{}"), UID)).toEqual({ start: false });
  });

  test("another build's helper does not answer", async () => {
    const { socket } = await startHelper(answer);
    expect(await askHelper(socket, request("{}", "build-b"), UID)).toEqual({ start: false });
  });

  test("a helper that fails does not answer", async () => {
    const failing = await startHelper(() => Promise.reject(new Error("boom")));
    expect(await askHelper(failing.socket, request("{}"), UID)).toEqual({ start: false });
  });

  test("a hook call that gives up closes its connection (an open one would keep the process alive)", async () => {
    const dir = tempDir();
    const socket = join(dir, "mute.sock");
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const mute = createServer((connection) => connection.on("close", closed).resume());
    await new Promise<void>((resolve) => mute.listen(socket, resolve));
    chmodSync(socket, 0o600);
    expect(await askHelper(socket, request("{}"), UID, 50)).toEqual({ start: true });
    await connectionClosed;
    mute.close();
  });

  test("a helper too slow to answer loses its socket and leaves; the next call starts another", async () => {
    const slow = await startHelper(() => Bun.sleep(200).then(() => "late"));
    expect(await askHelper(slow.socket, request("{}"), UID, 50)).toEqual({ start: true });
    expect(existsSync(slow.socket)).toBe(false);
    await slow.stopped;
  });
});

describe("the helper's lifetime", () => {
  test("its socket is private: mode 0600 in a 0700 directory", async () => {
    const { socket } = await startHelper(async () => "");
    const { statSync } = await import("node:fs");
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(join(socket, "..")).mode & 0o777).toBe(0o700);
  });

  test("it leaves when idle and removes its socket", async () => {
    const { socket, stopped } = await startHelper(async () => "", 50);
    await stopped;
    expect(existsSync(socket)).toBe(false);
  });

  test("it leaves when its socket is removed or replaced", async () => {
    const first = await startHelper(async () => "first");
    const dir = join(first.socket, "..", "other");
    mkdirSync(dir);
    // The second helper watches the path it was started on, which the move below empties: it checks
    // seldom, so that it is still serving when it is asked, and leaves at its next check after that.
    const second = serveHelper({
      socket: join(dir, "hook.sock"),
      build: BUILD,
      answer: async () => "second",
      idleMs: 60_000,
      checkMs: 1_000,
    });
    const replacement = join(dir, "hook.sock");
    while (!existsSync(replacement)) await Bun.sleep(2);
    Bun.spawnSync(["mv", replacement, first.socket]);
    await first.stopped;
    expect(await askHelper(first.socket, request("{}"), UID)).toEqual({ answer: "second" });
    await second;
  });

  test("a second helper for a live socket leaves at once", async () => {
    const { socket } = await startHelper(async () => "first");
    await serveHelper({ socket, build: BUILD, answer: async () => "second", idleMs: 60_000, checkMs: 10 });
    expect(await askHelper(socket, request("{}"), UID)).toEqual({ answer: "first" });
  });
});

describe("helperSocket: one helper per build, user and decision environment", () => {
  const env = { HOME: "/home/a", TOOLRT_HOME: "/state" };

  test("in the state dir, named by a hash", () => {
    expect(helperSocket("b1", env, 1000)).toMatch(/^\/state\/hook-[0-9a-f]{24}\.sock$/);
  });

  test("another build, user or decision variable is another socket", () => {
    const base = helperSocket("b1", env, 1000);
    expect(helperSocket("b2", env, 1000)).not.toBe(base);
    expect(helperSocket("b1", env, 1001)).not.toBe(base);
    for (const name of DECISION_ENV) {
      if (name !== "TOOLRT_HOME") expect(helperSocket("b1", { ...env, [name]: "/x" }, 1000)).not.toBe(base);
    }
    expect(helperSocket("b1", { ...env, PATH: "/bin" }, 1000)).toBe(base);
  });

  test("another telemetry setting is another socket: a helper exports only where its callers would", () => {
    const base = helperSocket("b1", env, 1000);
    for (
      const more of [
        { TOOLRT_ENABLE_TELEMETRY: "1" },
        { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" },
        { OTEL_EXPORTER_OTLP_HEADERS: "authorization=other" },
        { OTEL_SDK_DISABLED: "true" },
      ]
    ) {
      expect(helperSocket("b1", { ...env, ...more }, 1000), JSON.stringify(more)).not.toBe(base);
    }
  });

  test("none from source (no build hash) or where the path would not fit a socket address", () => {
    expect(helperSocket(undefined, env, 1000)).toBeUndefined();
    expect(helperSocket("b1", { ...env, TOOLRT_HOME: `/${"d".repeat(80)}` }, 1000)).toBeUndefined();
  });
});
