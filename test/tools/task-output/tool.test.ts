import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createBashTool } from "../../../src/tools/bash/tool.ts";
import { taskOutputTool } from "../../../src/tools/task-output/tool.ts";
import { type TestContext, testContext } from "../../exec/processes/helpers.ts";

let ctx: TestContext;
afterEach(() => ctx?.dispose());

async function background(command: string): Promise<string> {
  const { data } = await createBashTool().call({ command, run_in_background: true }, ctx, () => {});
  return data.backgroundTaskId!;
}

const read = (input: Parameters<typeof taskOutputTool.call>[0]) => taskOutputTool.call(input, ctx, () => {});

describe("TaskOutput", () => {
  test("an unknown id is a clear error that lists the ids there are", async () => {
    ctx = testContext();
    await expect(read({ task_id: "bash-nope" })).rejects.toThrow(
      "No task or exec session with id 'bash-nope' in this session. None has been started.",
    );
    const id = await background("true");
    await expect(read({ task_id: "bash-nope" })).rejects.toThrow(`Known ids: ${id}.`);
  });

  test("returns only new output on each read, or everything with `all`", async () => {
    ctx = testContext();
    const release = join(ctx.cwd, "release");
    const id = await background(`echo one; while [ ! -e '${release}' ]; do sleep 0.02; done; echo two`);
    const first = await read({ task_id: id, block: false });
    writeFileSync(release, "");
    const second = await read({ task_id: id, timeout: 20_000 });
    expect(first.data.output + second.data.output).toBe("one\ntwo\n");
    expect(second.data.output.endsWith("two\n")).toBe(true);
    expect((await read({ task_id: id })).data.output).toBe("");
    expect((await read({ task_id: id, all: true })).data.output).toBe("one\ntwo\n");
  });

  test("a failed task reports its status and exit code in the data and the text", async () => {
    ctx = testContext();
    const id = await background("echo oops >&2; exit 4");
    const { data } = await read({ task_id: id, timeout: 20_000 });
    expect(data).toMatchObject({ status: "failed", exit_code: 4, retrieval_status: "success", kind: "bash" });
    const text = (taskOutputTool.toContent(data, { task_id: id })[0] as { text: string }).text;
    expect(text).toBe(
      `Task ${id} (echo oops >&2; exit 4): Exited with code 4.\noops\nWhole output: ${data.output_path}`,
    );
  });

  test("long output is cut to its start and end, with the file that holds it all", async () => {
    ctx = testContext();
    const id = await background("seq 1 100000");
    const { data } = await read({ task_id: id, timeout: 20_000 });
    expect(data.omitted_bytes).toBeGreaterThan(0);
    expect(data.output.startsWith("1\n2\n3\n")).toBe(true);
    expect(data.output.endsWith("99999\n100000\n")).toBe(true);
    expect(data.output).toContain(`the whole output is in ${data.output_path}`);
  });

  test("waiting ends when the turn is interrupted", async () => {
    const controller = new AbortController();
    ctx = testContext(controller.signal);
    const id = await background("sleep 30");
    setTimeout(() => controller.abort(), 50);
    const { data } = await read({ task_id: id, timeout: 600_000 });
    expect(data).toMatchObject({ status: "running", retrieval_status: "timeout" });
  });

  test("read-only, concurrency-safe, category read", () => {
    expect(taskOutputTool.isReadOnly({ task_id: "x" })).toBe(true);
    expect(taskOutputTool.isConcurrencySafe({ task_id: "x" })).toBe(true);
    expect(taskOutputTool.category).toBe("read");
  });
});
