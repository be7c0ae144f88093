import { afterEach, describe, expect, test } from "bun:test";
import { createBashTool } from "../../../src/tools/bash/tool.ts";
import { createExecCommandTool } from "../../../src/tools/exec-command/tool.ts";
import { writeStdinTool } from "../../../src/tools/write-stdin/tool.ts";
import { type TestContext, testContext } from "../../exec/processes/helpers.ts";

const execCommandTool = createExecCommandTool();

let ctx: TestContext;
afterEach(() => ctx?.dispose());

const start = async (cmd: string, tty = false) =>
  (await execCommandTool.call({ cmd, tty, yield_time_ms: 100 }, ctx, () => {})).data.session_id;
const write = (input: Parameters<typeof writeStdinTool.call>[0]) => writeStdinTool.call(input, ctx, () => {});

describe("WriteStdin", () => {
  test("answers a program waiting for input (pipes)", async () => {
    ctx = testContext();
    const id = await start("read x; echo got $x");
    const { data, isError } = await write({ session_id: id, chars: "hello\n", yield_time_ms: 30_000 });
    expect(isError).toBe(false);
    expect(data).toMatchObject({ status: "completed", exit_code: 0, output: "got hello\n" });
  });

  test("answers a program waiting for input (tty), several turns", async () => {
    ctx = testContext();
    const id = await start("read a; echo first $a; read b; echo second $b", true);
    let seen = (await write({ session_id: id, chars: "x\n", yield_time_ms: 100 })).data.output;
    // Poll (empty chars) until the answer to the first input has arrived.
    for (let polls = 0; !seen.includes("first x") && polls < 100; polls++) {
      seen += (await write({ session_id: id, yield_time_ms: 100 })).data.output;
    }
    expect(seen.replaceAll("\r", "")).toContain("first x\n");
    const two = await write({ session_id: id, chars: "y\n", yield_time_ms: 30_000 });
    expect(two.data.output.replaceAll("\r", "")).toContain("second y\n");
    expect(two.data.status).toBe("completed");
  });

  test("empty chars only polls, and counts as read-only", async () => {
    ctx = testContext();
    const id = await start("read x; echo got $x");
    const { data } = await write({ session_id: id, yield_time_ms: 50 });
    expect(data.status).toBe("running");
    expect(writeStdinTool.isReadOnly({ session_id: id })).toBe(true);
    expect(writeStdinTool.isReadOnly({ session_id: id, chars: "rm -rf x\n" })).toBe(false);
  });

  test("input to a program that has exited is not sent, and the result says so", async () => {
    ctx = testContext();
    const id = await start("echo bye");
    await write({ session_id: id, yield_time_ms: 30_000 });
    const { data } = await write({ session_id: id, chars: "late\n" });
    expect(data.status).toBe("completed");
    expect(data.note).toBe("The program had already exited; the input was not sent.");
  });

  test("an unknown session id is a clear error", async () => {
    ctx = testContext();
    await expect(write({ session_id: "exec-missing", chars: "x" })).rejects.toThrow(
      "No task or exec session with id 'exec-missing' in this session.",
    );
  });

  test("a Bash task takes no input: the error says what to use instead", async () => {
    ctx = testContext();
    const { data } = await createBashTool().call(
      { command: "sleep 30", run_in_background: true },
      ctx,
      () => {},
    );
    await expect(write({ session_id: data.backgroundTaskId!, chars: "x" })).rejects.toThrow(
      "was started by Bash and reads no input",
    );
  });
});
