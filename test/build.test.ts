/**
 * The single binary: built with and without a compile-time gate, run from a directory with no
 * node_modules. Slow-ish (two compiles), so both builds are shared by the tests below.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { buildBinary, buildHash } from "../build.ts";
import { askHelper } from "../src/hook/resident/client.ts";
import { helperSocket } from "../src/hook/resident/socket.ts";
import { tempDir } from "./helpers/session-context.ts";
import { eventually } from "./helpers/eventually.ts";
import { hookWorkspace } from "./hook/workspace.ts";

/** A sentence that exists only in WebFetch's model-facing prompt. */
const WEB_FETCH_MARKER = "Fetches a web page and returns its content as readable text";

const outdir = tempDir("toolrt-build-");
const plain = join(outdir, "toolrt");
const airgapped = join(outdir, "toolrt-airgapped");

beforeAll(async () => {
  await buildBinary({ outfile: plain, features: [] });
  await buildBinary({ outfile: airgapped, features: ["AIRGAPPED"] });
}, 120_000);

function toolNames(binary: string): string[] {
  const cwd = tempDir("toolrt-run-"); // no node_modules anywhere up from here
  const run = Bun.spawnSync([binary, "tools", "--json", "--all"], {
    cwd,
    env: { PATH: process.env.PATH ?? "" },
  });
  expect(run.exitCode).toBe(0);
  return JSON.parse(run.stdout.toString()).map((t: { name: string }) => t.name);
}

describe("compiled binary", () => {
  test("runs from a directory without node_modules and lists the built-ins", () => {
    expect(toolNames(plain)).toEqual(
      expect.arrayContaining(["Read", "Write", "Edit", "Glob", "Grep", "WebFetch"]),
    );
  });
  test("the default build contains the network family", () => {
    expect(readFileSync(plain).includes(WEB_FETCH_MARKER)).toBe(true);
  });
  test("a build with AIRGAPPED does not contain WebFetch's code at all", () => {
    expect(readFileSync(airgapped).includes(WEB_FETCH_MARKER)).toBe(false);
    expect(toolNames(airgapped)).not.toContain("WebFetch");
    expect(toolNames(airgapped)).toContain("Read");
  });
});

describe("compiled hook", () => {
  const fixtures = join(import.meta.dir, "../fixtures/hooks/claude-code");
  const cases = readdirSync(fixtures).map((file) => JSON.parse(readFileSync(join(fixtures, file), "utf8")));

  const denied = cases.find((c) => c.answer?.hookSpecificOutput?.permissionDecision === "deny");

  test("answers every recorded payload alike alone, through its helper and past a mute helper", async () => {
    const ws = hookWorkspace();
    const stateDir = join(ws.home, "..", "state");
    const env = { PATH: process.env.PATH ?? "", ...ws.env, TOOLRT_HOME: stateDir };
    const stdinOf = (payload: unknown) => JSON.stringify(payload).replaceAll("$CWD", ws.cwd);
    const hook = (payload: unknown, extra: Record<string, string> = {}) => {
      const stdin = Buffer.from(stdinOf(payload));
      const run = Bun.spawnSync([plain, "hook"], { cwd: ws.home, env: { ...env, ...extra }, stdin });
      const out = run.stdout.toString().trim();
      return out === "" ? null : JSON.parse(out.replaceAll(ws.cwd, "$CWD"));
    };
    const alone = { TOOLRT_NO_HOOK_HELPER: "1" };
    for (const { payload, answer } of cases) expect(hook(payload, alone)).toEqual(answer);
    expect(readdirSync(stateDir).filter((f) => f.endsWith(".sock"))).toEqual([]);

    const build = buildHash({ features: [] });
    const socket = helperSocket(build, env, process.getuid!())!;
    rmSync(stateDir, { recursive: true });
    expect(hook(denied.payload)).toEqual(denied.answer); // starts the helper, even with no state dir yet
    await eventually(() => existsSync(socket), "the resident helper's socket");
    try {
      expect(existsSync(`${socket}.starting`), "the helper removes the start marker").toBe(false);
      for (const { payload, answer } of cases) expect(hook(payload)).toEqual(answer);
      const request = {
        build,
        host: "claude-code" as const,
        sandbox: false,
        cwd: ws.home,
        stdin: stdinOf(denied.payload),
      };
      expect(await askHelper(socket, request, process.getuid!())).toHaveProperty("answer");
    } finally {
      rmSync(socket, { force: true }); // the helper leaves at its next look at the socket
    }

    // A helper that takes calls and never answers: the call still answers, in its own process, and
    // exits; the mute helper loses its socket to a new one.
    const mute = createServer((connection) => connection.resume());
    await new Promise<void>((resolve) => mute.listen(socket, resolve));
    chmodSync(socket, 0o600);
    const muteInode = statSync(socket).ino;
    // Did not hang on the mute helper: it answered (a hang would run into the test's timeout).
    expect(hook(denied.payload)).toEqual(denied.answer);
    const replaced = () => existsSync(socket) && statSync(socket).ino !== muteInode;
    await eventually(replaced, "a new helper to take the socket");
    rmSync(socket);
    mute.close();
  }, 30_000);
});
