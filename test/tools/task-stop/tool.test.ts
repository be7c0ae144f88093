import { afterEach, describe, expect, test } from "bun:test";
import { eventually } from "../../helpers/eventually.ts";
import { join } from "node:path";
import { createBashTool } from "../../../src/tools/bash/tool.ts";
import { taskOutputTool } from "../../../src/tools/task-output/tool.ts";
import { createTaskStopTool, taskStopTool } from "../../../src/tools/task-stop/tool.ts";
import {
  familyCommand,
  isAlive,
  readPids,
  type TestContext,
  testContext,
} from "../../exec/processes/helpers.ts";

let ctx: TestContext;
afterEach(() => ctx?.dispose());

async function background(command: string): Promise<string> {
  const { data } = await createBashTool({ killGraceMs: 200 }).call(
    { command, run_in_background: true },
    ctx,
    () => {},
  );
  return data.backgroundTaskId!;
}

describe("TaskStop", () => {
  test("stops a background task and every process it started; its output stays readable", async () => {
    ctx = testContext();
    const pidFile = join(ctx.cwd, "pids");
    const id = await background(familyCommand(pidFile));
    await eventually(() => readPidsSafe(pidFile).length === 3, "the three pids");
    const pids = readPids(pidFile);
    const { data } = await taskStopTool.call({ task_id: id }, ctx, () => {});
    expect(data).toMatchObject({ task_id: id, status: "stopped", was_running: true });
    await eventually(() => !pids.some(isAlive), "every process of the family to be gone");
    const after = await taskOutputTool.call({ task_id: id, all: true }, ctx, () => {});
    expect(after.data).toMatchObject({ status: "stopped", output: "family-started\n" });
  });

  test("stopping a task that already finished reports how it ended", async () => {
    ctx = testContext();
    const id = await background("exit 2");
    await taskOutputTool.call({ task_id: id, timeout: 20_000 }, ctx, () => {});
    const { data } = await createTaskStopTool().call({ task_id: id }, ctx, () => {});
    expect(data).toMatchObject({ status: "failed", exit_code: 2, was_running: false });
    expect((taskStopTool.toContent(data, { task_id: id })[0] as { text: string }).text)
      .toBe(`Task ${id} (exit 2) had already finished: failed, exit code 2.`);
  });

  test("an unknown id is a clear error", async () => {
    ctx = testContext();
    await expect(taskStopTool.call({ task_id: "bash-missing" }, ctx, () => {})).rejects.toThrow(
      "No task or exec session with id 'bash-missing'",
    );
  });

  test("not read-only: it ends processes", () => {
    expect(taskStopTool.isReadOnly({ task_id: "x" })).toBe(false);
    expect(taskStopTool.category).toBe("execute");
  });
});

function readPidsSafe(path: string): number[] {
  try {
    return readPids(path);
  } catch {
    return [];
  }
}
