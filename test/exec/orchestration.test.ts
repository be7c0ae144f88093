import { describe, expect, test } from "bun:test";
import { maxToolConcurrency } from "../../src/exec/concurrency.ts";
import { partitionToolCalls, runPartitioned } from "../../src/exec/partition.ts";
import { StreamingToolExecutor } from "../../src/exec/streaming-executor.ts";
import type { CallOutcome, ToolCall } from "../../src/exec/types.ts";

const call = (id: string, name = "Read"): ToolCall => ({ id, name, input: {} });
const safeNames = new Set(["Read", "Grep", "Glob"]);
const isSafe = (c: ToolCall) => safeNames.has(c.name);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function outcome(c: ToolCall, isError = false): CallOutcome {
  return {
    toolUseId: c.id,
    toolName: c.name,
    isError,
    decision: "allow",
    content: [{ type: "text", text: c.id }],
    durationMs: 0,
  };
}

describe("partitionToolCalls", () => {
  test("consecutive safe calls share a batch; unsafe calls run alone", () => {
    const calls = [
      call("1"),
      call("2", "Grep"),
      call("3", "Edit"),
      call("4"),
      call("5"),
      call("6", "Bash"),
      call("7", "Bash"),
    ];
    const batches = partitionToolCalls(calls, isSafe).map((b) =>
      `${b.concurrent ? "P" : "S"}:${b.calls.map((c) => c.id).join(",")}`
    );
    expect(batches).toEqual(["P:1,2", "S:3", "P:4,5", "S:6", "S:7"]);
  });
  test("results keep call order even when completion order is random", async () => {
    const calls = Array.from({ length: 30 }, (_, i) => call(String(i), i % 7 === 3 ? "Edit" : "Read"));
    const results = await runPartitioned(
      partitionToolCalls(calls, isSafe),
      async (c) => {
        await sleep(Math.random() * 5);
        return c.id;
      },
      10,
    );
    expect(results).toEqual(calls.map((c) => c.id));
  });
  test("never more than the cap run at once, and an unsafe call never overlaps another", async () => {
    let running = 0;
    let peak = 0;
    let overlapWithUnsafe = false;
    const calls = [...Array.from({ length: 12 }, (_, i) => call(`r${i}`)), call("e", "Edit"), call("r12")];
    await runPartitioned(partitionToolCalls(calls, isSafe), async (c) => {
      running++;
      peak = Math.max(peak, running);
      if (c.name === "Edit" && running > 1) overlapWithUnsafe = true;
      await sleep(2);
      running--;
      return c.id;
    }, 4);
    expect(peak).toBe(4);
    expect(overlapWithUnsafe).toBe(false);
  });
  test("the cap comes from TOOLRT_MAX_TOOL_USE_CONCURRENCY, bad values fall back to 10", () => {
    expect(maxToolConcurrency({ TOOLRT_MAX_TOOL_USE_CONCURRENCY: "3" })).toBe(3);
    expect(maxToolConcurrency({ TOOLRT_MAX_TOOL_USE_CONCURRENCY: "0" })).toBe(10);
    expect(maxToolConcurrency({ TOOLRT_MAX_TOOL_USE_CONCURRENCY: "lots" })).toBe(10);
    expect(maxToolConcurrency({})).toBe(10);
  });
});

describe("StreamingToolExecutor", () => {
  async function collect(executor: StreamingToolExecutor): Promise<string[]> {
    const ids: string[] = [];
    for await (const result of executor.getRemainingResults()) ids.push(result.toolUseId);
    return ids;
  }

  test("yields in arrival order under random completion times", async () => {
    const executor = new StreamingToolExecutor(
      async (c) => {
        await sleep(Math.random() * 8);
        return outcome(c);
      },
      isSafe,
      10,
    );
    const calls = Array.from({ length: 20 }, (_, i) => call(String(i), i % 5 === 4 ? "Edit" : "Read"));
    for (const c of calls) executor.addTool(c);
    expect(await collect(executor)).toEqual(calls.map((c) => c.id));
  });

  test("a tool starts while the model is still streaming: the first finishes before the second arrives", async () => {
    const started: string[] = [];
    const executor = new StreamingToolExecutor(
      async (c) => {
        started.push(c.id);
        return outcome(c);
      },
      isSafe,
      10,
    );
    executor.addTool(call("first"));
    await sleep(5); // the model is still producing the next block
    expect(started).toEqual(["first"]);
    expect([...executor.getCompletedResults()].map((r) => r.toolUseId)).toEqual(["first"]);
    executor.addTool(call("second"));
    expect(await collect(executor)).toEqual(["second"]);
  });

  test("safe tools run together; an unsafe one waits for them and runs alone; later ones do not overtake it", async () => {
    const log: string[] = [];
    let running = 0;
    const executor = new StreamingToolExecutor(
      async (c) => {
        running++;
        log.push(`start ${c.id} (${running} running)`);
        await sleep(c.name === "Edit" ? 10 : 5);
        running--;
        return outcome(c);
      },
      isSafe,
      10,
    );
    for (const c of [call("a"), call("b"), call("w", "Edit"), call("c")]) executor.addTool(c);
    expect(await collect(executor)).toEqual(["a", "b", "w", "c"]);
    expect(log).toEqual([
      "start a (1 running)",
      "start b (2 running)",
      "start w (1 running)",
      "start c (1 running)",
    ]);
  });

  test("states move queued → executing → completed → yielded", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const executor = new StreamingToolExecutor(
      async (c) => {
        await gate;
        return outcome(c);
      },
      isSafe,
      10,
    );
    executor.addTool(call("x", "Edit"));
    executor.addTool(call("y", "Edit"));
    expect(executor.states()).toEqual([{ id: "x", state: "executing" }, { id: "y", state: "queued" }]);
    release();
    const ids = await collect(executor);
    expect(ids).toEqual(["x", "y"]);
    expect(executor.states().every((s) => s.state === "yielded")).toBe(true);
  });

  test("a failing Bash call cancels its running and queued siblings", async () => {
    const aborted: string[] = [];
    const executor = new StreamingToolExecutor(
      async (c, signal) => {
        if (c.id === "bad") {
          await sleep(2);
          return outcome(c, true);
        }
        await new Promise<void>((resolve) => {
          signal.addEventListener("abort", () => (aborted.push(c.id), resolve()));
          setTimeout(resolve, 2_000);
        });
        return outcome(c, signal.aborted);
      },
      (c) => c.name === "Bash",
      10,
    );
    executor.addTool(call("slow", "Bash"));
    executor.addTool(call("bad", "Bash"));
    executor.addTool(call("later", "Edit"));
    const results: CallOutcome[] = [];
    for await (const r of executor.getRemainingResults()) results.push(r);
    expect(results.map((r) => `${r.toolUseId}:${r.isError}`)).toEqual([
      "slow:true",
      "bad:true",
      "later:true",
    ]);
    expect(aborted).toEqual(["slow"]);
    expect(results[2]!.content[0]).toMatchObject({
      text: expect.stringContaining("sibling Bash call failed"),
    });
  });

  test("a failing non-Bash call does not cancel siblings", async () => {
    const executor = new StreamingToolExecutor(async (c) => outcome(c, c.id === "bad"), isSafe, 10);
    executor.addTool(call("bad"));
    executor.addTool(call("good"));
    const results: CallOutcome[] = [];
    for await (const r of executor.getRemainingResults()) results.push(r);
    expect(results.map((r) => r.isError)).toEqual([true, false]);
  });

  test("abort cancels queued calls and signals running ones", async () => {
    const executor = new StreamingToolExecutor(
      async (c, signal) => {
        await new Promise<void>((r) => signal.addEventListener("abort", () => r()));
        return outcome(c, true);
      },
      isSafe,
      10,
    );
    executor.addTool(call("running", "Edit"));
    executor.addTool(call("queued", "Edit"));
    executor.abort("user pressed Ctrl-C");
    const results: CallOutcome[] = [];
    for await (const r of executor.getRemainingResults()) results.push(r);
    expect(results.map((r) => r.toolUseId)).toEqual(["running", "queued"]);
    expect(JSON.stringify(results[1]!.content)).toContain("user pressed Ctrl-C");
  });

  test("an execute function that throws still yields a well-formed result", async () => {
    const executor = new StreamingToolExecutor(
      async () => {
        throw new Error("kaboom");
      },
      isSafe,
      10,
    );
    executor.addTool(call("x"));
    const results: CallOutcome[] = [];
    for await (const r of executor.getRemainingResults()) results.push(r);
    expect(results[0]).toMatchObject({ isError: true, toolUseId: "x" });
  });
});
