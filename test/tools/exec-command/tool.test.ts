import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createExecCommandTool } from "../../../src/tools/exec-command/tool.ts";
import { taskOutputTool } from "../../../src/tools/task-output/tool.ts";
import { failClosedSemantics, type TestContext, testContext } from "../../exec/processes/helpers.ts";

const execCommandTool = createExecCommandTool();

let ctx: TestContext;
afterEach(() => ctx?.dispose());

const exec = (input: Parameters<typeof execCommandTool.call>[0]) =>
  execCommandTool.call(input, ctx, () => {});
const text = (data: Awaited<ReturnType<typeof exec>>["data"]) =>
  (execCommandTool.toContent(data, { cmd: "" })[0] as { text: string }).text;

describe("ExecCommand", () => {
  test("a program that exits within the yield time returns at once with its exit code", async () => {
    ctx = testContext();
    const { data, isError } = await exec({ cmd: "echo hi; exit 3", yield_time_ms: 30_000 });
    expect(isError).toBe(true);
    expect(data).toMatchObject({ status: "failed", exit_code: 3, output: "hi\n" });
    expect(data.wall_time_ms).toBeLessThan(30_000);
    expect(text(data)).toBe(`hi\nSession ${data.session_id}: Exited with code 3.`);
  });

  test("a program waiting for input does not block the call: it returns running, with a session id", async () => {
    ctx = testContext();
    const { data, isError } = await exec({ cmd: "echo prompt:; read x; echo got $x", yield_time_ms: 200 });
    expect(isError).toBe(false);
    expect(data.status).toBe("running");
    expect(data.session_id).toMatch(/^exec-/);
    expect(text(data)).toContain(
      `Session ${data.session_id} is still running. Send input or poll with WriteStdin`,
    );
  });

  test("output beyond max_output_tokens is cut to start and end; TaskOutput can read it all", async () => {
    ctx = testContext();
    const { data } = await exec({ cmd: "seq 1 5000", max_output_tokens: 100, yield_time_ms: 30_000 });
    expect(data.omitted_bytes).toBeGreaterThan(0);
    expect(data.output.startsWith("1\n2\n")).toBe(true);
    expect(data.output.endsWith("4999\n5000\n")).toBe(true);
    const whole = await taskOutputTool.call({ task_id: data.session_id, all: true }, ctx, () => {});
    expect(whole.data.omitted_bytes).toBe(0);
    expect(whole.data.output.startsWith("1\n2\n")).toBe(true);
    expect(whole.data.output.endsWith("4999\n5000\n")).toBe(true);
  });

  test("workdir is resolved against the workspace", async () => {
    ctx = testContext();
    mkdirSync(join(ctx.cwd, "sub"));
    const { data } = await exec({ cmd: "pwd", workdir: "sub", yield_time_ms: 30_000 });
    expect(data.output).toBe(`${join(ctx.cwd, "sub")}\n`);
  });

  test("a tty session sees a terminal", async () => {
    ctx = testContext();
    const { data } = await exec({ cmd: "test -t 1 && echo terminal", tty: true, yield_time_ms: 30_000 });
    expect(data.output.replaceAll("\r", "")).toBe("terminal\n");
  });

  test("read-only only as far as the semantics say; fail-closed semantics make nothing read-only", () => {
    expect(createExecCommandTool({ semantics: failClosedSemantics }).isReadOnly({ cmd: "ls" })).toBe(false);
    const wired = createExecCommandTool({ semantics: { ...failClosedSemantics, readOnlyOf: () => true } });
    expect(wired.isReadOnly({ cmd: "ls" })).toBe(true);
    expect(execCommandTool.interruptBehavior()).toBe("cancel");
  });
});
