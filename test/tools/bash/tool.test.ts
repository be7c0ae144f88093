import { afterEach, describe, expect, test } from "bun:test";
import { eventually } from "../../helpers/eventually.ts";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { taskRegistryFor } from "../../../src/exec/processes/task-registry.ts";
import type { ToolProgress } from "../../../src/tool/types.ts";
import { loadBashParser } from "../../../src/bash/parser.ts";
import type { CommandSemantics } from "../../../src/tools/bash/analysis.ts";
import { bashInputSchema, type BashOutput } from "../../../src/tools/bash/schema.ts";
import { type BashToolOptions, createBashTool } from "../../../src/tools/bash/tool.ts";
import { taskOutputTool } from "../../../src/tools/task-output/tool.ts";
import {
  failClosedSemantics,
  familyCommand,
  isAlive,
  readPids,
  type TestContext,
  testContext,
} from "../../exec/processes/helpers.ts";

const bashTool = createBashTool();

let ctx: TestContext;
afterEach(() => ctx?.dispose());

const text = (output: BashOutput) =>
  (bashTool.toContent(output, { command: "" })[0] as { text: string }).text;

async function run(command: string, options: BashToolOptions = {}, extra: Record<string, unknown> = {}) {
  ctx ??= testContext();
  const progress: ToolProgress[] = [];
  const result = await createBashTool({ killGraceMs: 200, ...options }).call(
    { command, ...extra },
    ctx,
    (p) => progress.push(p),
  );
  return { ...result, progress };
}

/** Waits (in the shell) for a file the test creates: a command that ends when the test says so. */
const waitFor = (path: string) => `while [ ! -e '${path}' ]; do sleep 0.02; done`;

describe("Bash: exit codes and output", () => {
  test("success: stdout, no error, no status line", async () => {
    ctx = testContext();
    const { data, isError } = await run("echo hello");
    expect(isError).toBe(false);
    expect(data).toMatchObject({ stdout: "hello\n", stderr: "", exitCode: 0, interrupted: false });
    expect(text(data)).toBe("hello");
  });

  test("a non-zero exit is an error that gives the code; stderr is kept apart", async () => {
    ctx = testContext();
    const { data, isError } = await run("echo partial; echo broken >&2; exit 3");
    expect(isError).toBe(true);
    expect(data).toMatchObject({ stdout: "partial\n", stderr: "broken\n", exitCode: 3 });
    expect(text(data)).toBe("partial\nbroken\nExit code 3");
  });

  test("exit semantics come from the injected interpretation (grep's 1 is not a failure)", async () => {
    ctx = testContext();
    const semantics: CommandSemantics = {
      ...failClosedSemantics,
      interpretExit: (command, code) =>
        command.startsWith("grep") && code === 1
          ? { isError: false, meaning: "no matches" }
          : { isError: code !== 0 },
    };
    const { data, isError } = await run("grep nothing /dev/null", { semantics });
    expect(isError).toBe(false);
    expect(data.exitMeaning).toBe("no matches");
    expect(text(data)).toBe("Exit code 1 (no matches)");
  });

  test("no output at all says so", async () => {
    ctx = testContext();
    expect(text((await run("true")).data)).toBe("(no output)");
  });

  test("runs in the context's working directory", async () => {
    ctx = testContext();
    expect((await run("pwd")).data.stdout).toBe(`${ctx.cwd}\n`);
  });

  test("a missing working directory is a clear error", async () => {
    ctx = testContext();
    const gone = { ...ctx, cwd: join(ctx.cwd, "gone") };
    await expect(bashTool.call({ command: "true" }, gone, () => {})).rejects.toThrow(
      "the working directory does not exist",
    );
  });

  test("progress streams output while the command runs", async () => {
    ctx = testContext();
    const marker = join(ctx.cwd, "seen");
    // The command only finishes once the test has seen its first line as progress.
    const tool = createBashTool();
    const progress: string[] = [];
    const { data } = await tool.call(
      { command: `echo first; ${waitFor(marker)}; echo second`, timeout: 20_000 },
      ctx,
      (p) => {
        progress.push(p.message);
        if (p.message.includes("first")) writeFileSync(marker, "");
      },
    );
    expect(data.timedOut).toBeUndefined();
    expect(data.stdout).toBe("first\nsecond\n");
    expect(progress.join("")).toBe("first\nsecond\n");
  });

  test("output that reached the model whole leaves no file behind", async () => {
    ctx = testContext();
    await run("echo small; echo also small >&2");
    const tasks = join(ctx.stateDir, "tasks");
    expect(existsSync(tasks) ? readdirSync(tasks) : []).toEqual([]);
  });
});

describe("Bash: large output", () => {
  test("100 MB of output stays bounded in memory and is kept whole on disk", async () => {
    ctx = testContext();
    // JS heap plus buffers after a full collection: what the call keeps, whatever garbage the
    // chunks passing through to the file left behind (RSS and peaks move with GC timing).
    const retained = () => {
      Bun.gc(true);
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const before = retained();
    const tool = createBashTool({ maxOutputBytes: 20_000 });
    const { data, isError } = await tool.call(
      { command: "head -c 100000000 /dev/zero | tr '\\0' x; echo; echo end-of-output" },
      ctx,
      () => {},
    );
    const kept = retained() - before;
    expect(isError).toBe(false);
    expect(data.outputPath).toBeDefined();
    expect(statSync(data.outputPath!).size).toBe(100_000_000 + 1 + "end-of-output\n".length);
    expect(data.stdout.length).toBeLessThan(21_000);
    expect(data.stdout.startsWith("x".repeat(5_000))).toBe(true);
    expect(data.stdout.endsWith("x\nend-of-output\n")).toBe(true);
    expect(data.stdout).toContain(`omitted here; the whole output is in ${data.outputPath}`);
    // Holding the output would keep 100 MB at least; the head/tail buffers keep 40 KB.
    expect(kept).toBeLessThan(16 * 1024 * 1024);
  });
});

describe("Bash: timeout and interruption", () => {
  test("a timeout stops the command and every grandchild; the result says it timed out", async () => {
    ctx = testContext();
    const pidFile = join(ctx.cwd, "pids");
    const { data, isError } = await run(familyCommand(pidFile), { backgroundBudgetMs: null }, {
      timeout: 300,
    });
    expect(isError).toBe(true);
    expect(data.timedOut).toBe(true);
    expect(data.stdout).toBe("family-started\n");
    expect(text(data)).toContain("Timed out after");
    const pids = readPids(pidFile);
    expect(pids).toHaveLength(3);
    await eventually(() => !pids.some(isAlive), "every process of the family to be gone");
  });

  test("grandchildren that ignore SIGTERM are killed too", async () => {
    ctx = testContext();
    const pidFile = join(ctx.cwd, "pids");
    const stubborn = `(trap '' TERM; echo $BASHPID >> '${pidFile}'; while :; do sleep 0.05; done) & ` +
      `echo $$ >> '${pidFile}'; echo started; wait`;
    const { data } = await run(stubborn, { backgroundBudgetMs: null }, { timeout: 300 });
    expect(data.timedOut).toBe(true);
    const pids = readPids(pidFile);
    expect(pids).toHaveLength(2);
    await eventually(() => !pids.some(isAlive), "every process of the family to be gone");
  });

  test("an abort interrupts the command: group stopped, partial output kept", async () => {
    const controller = new AbortController();
    ctx = testContext(controller.signal);
    const pidFile = join(ctx.cwd, "pids");
    const call = createBashTool({ killGraceMs: 200 }).call(
      { command: familyCommand(pidFile, "before-interrupt"), timeout: 60_000 },
      ctx,
      (p) => p.message.includes("before-interrupt") && controller.abort(),
    );
    const { data, isError } = await call;
    expect(isError).toBe(true);
    expect(data.interrupted).toBe(true);
    expect(data.timedOut).toBeUndefined();
    expect(data.stdout).toBe("before-interrupt\n");
    expect(text(data)).toContain("Interrupted");
    const pids = readPids(pidFile);
    await eventually(() => !pids.some(isAlive), "every process of the family to be gone");
  });

  test("a signal aborted before the call starts nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    ctx = testContext(controller.signal);
    const marker = join(ctx.cwd, "ran");
    const { data, isError } = await run(`touch '${marker}'`);
    expect(isError).toBe(true);
    expect(data.interrupted).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });
});

describe("Bash: background", () => {
  test("run_in_background returns at once with a task id; TaskOutput reads the task", async () => {
    ctx = testContext();
    const release = join(ctx.cwd, "release");
    const { data, isError } = await run(`echo started; ${waitFor(release)}; echo finished`, {}, {
      run_in_background: true,
    });
    expect(isError).toBeUndefined();
    expect(data.backgroundTaskId).toMatch(/^bash-/);
    expect(data.exitCode).toBeNull();
    expect(existsSync(data.outputPath!)).toBe(true);
    expect(text(data)).toContain(`Running in the background as task ${data.backgroundTaskId}`);

    const task = taskRegistryFor(ctx.session).require(data.backgroundTaskId!);
    await eventually(() => task.process.log.bytes > 0, "output in the task's log");
    const early = await taskOutputTool.call({ task_id: task.id, block: false }, ctx, () => {});
    expect(early.data).toMatchObject({
      output: "started\n",
      status: "running",
      retrieval_status: "not_ready",
    });
    writeFileSync(release, "");
    const done = await taskOutputTool.call({ task_id: task.id, timeout: 20_000 }, ctx, () => {});
    expect(done.data).toMatchObject({ output: "finished\n", status: "completed", exit_code: 0 });
    expect(done.data.retrieval_status).toBe("success");
  });

  test("a foreground command past the budget moves to the background instead of being killed", async () => {
    ctx = testContext();
    const release = join(ctx.cwd, "release");
    const { data, isError } = await run(`echo early; ${waitFor(release)}; echo late`, {
      backgroundBudgetMs: 100,
    });
    expect(isError).toBeUndefined();
    expect(data.movedToBackground).toBe(true);
    expect(data.stdout).toBe("early\n");
    expect(text(data)).toContain(`moved to the background as task ${data.backgroundTaskId}`);
    const task = taskRegistryFor(ctx.session).require(data.backgroundTaskId!);
    expect(task.process.running).toBe(true);
    writeFileSync(release, "");
    const later = await taskOutputTool.call(
      { task_id: data.backgroundTaskId!, timeout: 20_000 },
      ctx,
      () => {},
    );
    // Only what the model has not seen yet.
    expect(later.data.output).toBe("late\n");
    expect(later.data.status).toBe("completed");
  });

  test("an explicit timeout still stops a command that moved to the background", async () => {
    ctx = testContext();
    const { data } = await run("sleep 30", { backgroundBudgetMs: 50 }, { timeout: 400 });
    expect(data.movedToBackground).toBe(true);
    const later = await taskOutputTool.call(
      { task_id: data.backgroundTaskId!, timeout: 20_000 },
      ctx,
      () => {},
    );
    expect(later.data.status).toBe("timed_out");
  });
});

describe("Bash: contract", () => {
  test("read-only and concurrency safety come from the analyzer by default", async () => {
    await loadBashParser();
    expect(bashTool.isReadOnly({ command: "git log --oneline | head -3" })).toBe(true);
    expect(bashTool.isConcurrencySafe({ command: "rg --files" })).toBe(true);
    expect(bashTool.isReadOnly({ command: "find . -delete" })).toBe(false);
    expect(bashTool.isReadOnly({ command: "ls > out.txt" })).toBe(false);
  });

  test("semantics can be injected; fail-closed semantics make nothing read-only", () => {
    expect(createBashTool({ semantics: failClosedSemantics }).isReadOnly({ command: "ls" })).toBe(false);
    const semantics = { ...failClosedSemantics, readOnlyOf: (command: string) => command === "ls" };
    const wired = createBashTool({ semantics });
    expect(wired.isReadOnly({ command: "ls" })).toBe(true);
    expect(wired.isConcurrencySafe({ command: "ls" })).toBe(true);
    expect(wired.isReadOnly({ command: "rm -rf x" })).toBe(false);
  });

  test("category execute, interrupts cancel", () => {
    expect(bashTool.category).toBe("execute");
    expect(bashTool.interruptBehavior()).toBe("cancel");
  });

  test("the input schema refuses a timeout over 10 minutes and an empty command", () => {
    expect(bashInputSchema.safeParse({ command: "ls", timeout: 600_000 }).success).toBe(true);
    expect(bashInputSchema.safeParse({ command: "ls", timeout: 600_001 }).success).toBe(false);
    expect(bashInputSchema.safeParse({ command: "" }).success).toBe(false);
    expect(bashInputSchema.safeParse({ command: "ls", extra: 1 }).success).toBe(false);
  });

  test("the launch wrapper sees argv, env and the sandbox request, and its result is what runs", async () => {
    ctx = testContext();
    const seen: unknown[] = [];
    const cleaned: string[] = [];
    const { data } = await run("echo original", {
      wrapLaunch: (launch, request) => {
        seen.push({ shell: launch.argv.slice(0, -1), request, term: launch.env.TERM });
        return {
          ...launch,
          argv: [...launch.argv.slice(0, -1), "echo wrapped"],
          cleanup: () => void cleaned.push("done"),
        };
      },
    }, { dangerouslyDisableSandbox: true });
    expect(data.stdout).toBe("wrapped\n");
    expect(seen).toEqual([{
      shell: [expect.stringMatching(/bash$/), "--noprofile", "--norc", "-c"],
      request: { command: "echo original", unsandboxed: true },
      term: "dumb",
    }]);
    expect(cleaned).toEqual(["done"]);
  });
});
