import { afterEach, describe, expect, test } from "bun:test";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bashLaunch, stableEnvironment } from "../../../src/exec/processes/launch.ts";
import {
  type InputMode,
  ManagedProcess,
  type StartOptions,
} from "../../../src/exec/processes/managed-process.ts";
import { familyCommand, isAlive, readPids, type TestContext, testContext } from "./helpers.ts";
import { eventually } from "../../helpers/eventually.ts";

let ctx: TestContext;
afterEach(() => ctx?.dispose());

function start(
  command: string,
  input: InputMode = "none",
  extra: Partial<StartOptions> = {},
): ManagedProcess {
  ctx ??= testContext();
  return ManagedProcess.start(command, {
    launch: bashLaunch(command, ctx.cwd, input === "tty" ? "tty" : "pipes"),
    logPath: join(ctx.stateDir, `${crypto.randomUUID()}.log`),
    input,
    capture: { headBytes: 1_000, tailBytes: 1_000 },
    killGraceMs: 200,
    ...extra,
  });
}

describe("ManagedProcess", () => {
  test("reports the exit code and keeps stdout and stderr apart, both also in the log", async () => {
    ctx = testContext();
    const child = start("echo out; echo err >&2; exit 7");
    const end = await child.ended;
    expect(end).toEqual({ exitCode: 7, signal: null, stopReason: undefined });
    expect(child.captured.stdout.excerpt().head).toBe("out\n");
    expect(child.captured.stderr.excerpt().head).toBe("err\n");
    expect(readFileSync(child.log.path, "utf8").split("\n").sort()).toEqual(["", "err", "out"]);
  });

  test("a listener given at start sees the first chunk, however fast it comes", async () => {
    ctx = testContext();
    for (let i = 0; i < 20; i++) {
      const seen: string[] = [];
      const child = start("echo first", "none", {
        onOutput: (_stream, chunk) => seen.push(new TextDecoder().decode(chunk)),
      });
      await Promise.resolve(); // the caller's own await: chunks may already be delivered here
      await child.ended;
      expect(seen.join(""), `run ${i}`).toBe("first\n");
    }
  });

  test("stop() ends the command and the grandchildren it started", async () => {
    ctx = testContext();
    const pidFile = join(ctx.cwd, "pids");
    const child = start(familyCommand(pidFile));
    await eventually(() => child.captured.stdout.totalBytes > 0, "the first output");
    const pids = readPids(pidFile);
    expect(pids).toHaveLength(3);
    expect(pids.every(isAlive)).toBe(true);
    const end = await child.stop("stop");
    expect(end.stopReason).toBe("stop");
    await eventually(() => !pids.some(isAlive), "every process of the family to be gone");
  });

  test("a command that ignores SIGTERM is killed with SIGKILL after the grace period", async () => {
    ctx = testContext();
    const child = start("trap '' TERM; echo ready; while :; do sleep 0.05; done");
    await eventually(() => child.captured.stdout.totalBytes > 0, "the first output");
    const end = await child.stop("timeout");
    expect(end.signal).toBe("SIGKILL");
    expect(end.exitCode).toBe(137);
  });

  test("a deadline stops the command with reason 'timeout'", async () => {
    ctx = testContext();
    const child = start("sleep 30");
    child.setDeadline(50);
    expect((await child.ended).stopReason).toBe("timeout");
  });

  test("a leftover background job holding the output open does not keep the command from ending", async () => {
    ctx = testContext();
    const pidFile = join(ctx.cwd, "pids");
    const child = start(`sleep 30 & echo $! > '${pidFile}'; echo done`);
    const end = await child.ended;
    expect(end.exitCode).toBe(0);
    expect(child.captured.stdout.excerpt().head).toBe("done\n");
    process.kill(readPids(pidFile)[0]!, "SIGKILL");
  });

  test("a pipe session takes input on stdin", async () => {
    ctx = testContext();
    const child = start("read x; echo got $x", "pipe");
    await child.write("hello\n");
    await child.ended;
    expect(child.captured.stdout.excerpt().head).toBe("got hello\n");
  });

  test("a tty session runs under a terminal and takes input", async () => {
    ctx = testContext();
    const child = start("test -t 0 && echo tty; read x; echo got $x", "tty");
    await child.write("hi\n");
    await child.ended;
    const text = child.captured.stdout.excerpt().head.replaceAll("\r", "");
    expect(text).toContain("tty\n");
    expect(text).toContain("got hi\n");
  });

  test("writing to a process started without input is a clear error", async () => {
    ctx = testContext();
    const child = start("sleep 5");
    await expect(child.write("x")).rejects.toThrow("was started without input");
    await child.stop("stop");
  });

  test("a missing working directory is named in the error", () => {
    ctx = testContext();
    const missing = join(ctx.cwd, "missing");
    expect(() =>
      ManagedProcess.start("true", {
        launch: bashLaunch("true", missing),
        logPath: join(ctx.stateDir, "x.log"),
        input: "none",
        capture: { headBytes: 10, tailBytes: 10 },
      })
    ).toThrow(`in ${missing}: the working directory does not exist`);
  });

  for (const input of ["none", "tty"] as const) {
    test(`extra stdio reaches the child from descriptor 3 on, and attach sees the parent's ends (${input})`, async () => {
      ctx = testContext();
      const file = join(ctx.cwd, "fd3");
      writeFileSync(file, "from-fd-3\n");
      const fd = openSync(file, "r");
      const attached: unknown[] = [];
      const command = "cat <&3; echo to-fd-4 >&4";
      const child = ManagedProcess.start(command, {
        launch: {
          ...bashLaunch(command, ctx.cwd, input === "tty" ? "tty" : "pipes"),
          extraStdio: [fd, "pipe"],
          attach: (spawned) => attached.push(...spawned.stdio.slice(3).map((s) => typeof s)),
        },
        logPath: join(ctx.stateDir, "extra.log"),
        input,
        capture: { headBytes: 1_000, tailBytes: 1_000 },
      });
      expect((await child.ended).exitCode).toBe(0);
      closeSync(fd);
      expect(child.captured.stdout.excerpt().head).toContain("from-fd-3");
      expect(attached).toEqual(["number", "number"]);
    });
  }
});

describe("stableEnvironment", () => {
  test("drops what bash would source or import, turns off pagers and prompts", () => {
    const env = stableEnvironment("pipes", {
      PATH: "/bin",
      BASH_ENV: "/tmp/rc",
      ENV: "/tmp/rc",
      "BASH_FUNC_ls%%": "() { echo hijacked; }",
      PAGER: "less",
      UNSET: undefined,
    });
    expect(env).toEqual({
      PATH: "/bin",
      PAGER: "cat",
      GIT_PAGER: "cat",
      GIT_TERMINAL_PROMPT: "0",
      TERM: "dumb",
      TOOLRT: "1",
    });
    expect(stableEnvironment("tty", {}).TERM).toBe("xterm-256color");
  });

  test("a BASH_ENV start-up file in the parent's environment is not run", async () => {
    ctx = testContext();
    const rc = join(ctx.cwd, "rc");
    await Bun.write(rc, "echo sourced");
    const launch = bashLaunch("echo plain", ctx.cwd);
    const child = ManagedProcess.start("echo plain", {
      launch: { ...launch, env: stableEnvironment("pipes", { ...process.env, BASH_ENV: rc }) },
      logPath: join(ctx.stateDir, "rc.log"),
      input: "none",
      capture: { headBytes: 100, tailBytes: 100 },
    });
    await child.ended;
    expect(child.captured.stdout.excerpt().head).toBe("plain\n");
  });
});
