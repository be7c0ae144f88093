/**
 * Pipeline overhead: a no-op tool call through every stage (without and with the audit log), and
 * the streaming executor against running the same calls one after another.
 */
import "./support/isolated-home.ts";
import { z } from "zod";
import { AuditLog } from "../src/audit/log.ts";
import { executeToolCall, type PipelineDeps } from "../src/exec/pipeline.ts";
import { StreamingToolExecutor } from "../src/exec/streaming-executor.ts";
import { ToolPool } from "../src/pool/tool-pool.ts";
import { buildTool } from "../src/tool/build-tool.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSession } from "../src/exec/session.ts";
import { readTool } from "../src/tools/read/tool.ts";
import { testContext } from "../test/helpers/session-context.ts";
import { report, round, summarize, timeRuns } from "./support/lib.ts";
import { toolOnlyPolicy } from "../test/helpers/tool-only-policy.ts";

const noop = buildTool({
  name: "Noop",
  description: "does nothing",
  prompt: () => "",
  inputSchema: z.object({ n: z.number() }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  call: async () => ({ data: "ok" }),
});
const sleeper = buildTool({
  name: "Sleep",
  description: "waits",
  prompt: () => "",
  inputSchema: z.object({ ms: z.number() }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  call: async (input) => {
    await Bun.sleep(input.ms);
    return { data: "ok" };
  },
});

const ctx = testContext();
const pool = new ToolPool([noop, sleeper], { mode: "default", denyRules: [] });
const deps: PipelineDeps = { pool, policy: toolOnlyPolicy, hooks: {}, sessionId: "bench" };

for (const [label, withAudit] of [["no_audit", false], ["with_audit", true]] as const) {
  const d = withAudit ? { ...deps, audit: AuditLog.inStateDir(ctx.stateDir) } : deps;
  let i = 0;
  const samples = await timeRuns(
    5_000,
    () => executeToolCall({ id: `t${i++}`, name: "Noop", input: { n: i } }, ctx, d),
    500,
  );
  const s = summarize(samples.map((ms) => ms * 1000));
  report(`pipeline.noop.${label}`, { median_us: round(s.median, 1), p99_us: round(s.p99, 1), n: s.n });
}

// Ten 20 ms calls arriving 5 ms apart as a model streams them: streamed execution overlaps them.
const calls = Array.from({ length: 10 }, (_, i) => ({ id: `s${i}`, name: "Sleep", input: { ms: 20 } }));
const serialStart = performance.now();
for (const call of calls) {
  await Bun.sleep(5);
  await executeToolCall(call, ctx, deps);
}
const serialMs = performance.now() - serialStart;
const streamStart = performance.now();
const executor = new StreamingToolExecutor(
  (call, signal) => executeToolCall(call, ctx, deps, { signal }),
  () => true,
  10,
);
for (const call of calls) {
  await Bun.sleep(5);
  executor.addTool(call);
}
for await (const _ of executor.getRemainingResults()) { /* drain */ }
const streamMs = performance.now() - streamStart;
report("pipeline.streaming_vs_serial", {
  calls: calls.length,
  serial_ms: round(serialMs, 1),
  streaming_ms: round(streamMs, 1),
  speedup: round(serialMs / streamMs, 2),
});

// 1,000 Read calls in one turn, as one model message: batched in parallel, one message budget.
{
  const readCtx = testContext();
  mkdirSync(readCtx.cwd, { recursive: true });
  const calls = Array.from({ length: 1_000 }, (_, i) => {
    const file = join(readCtx.cwd, `f${i}.txt`);
    writeFileSync(file, `line ${i}\n`.repeat(20));
    return { id: `r${i}`, name: "Read", input: { file_path: file } };
  });
  for (const withAudit of [false, true]) {
    const session = createSession({
      pool: new ToolPool([readTool], { mode: "default", denyRules: [] }),
      policy: toolOnlyPolicy,
      cwd: readCtx.cwd,
      stateDir: readCtx.stateDir,
      mode: "default",
      invokedBy: "provider",
      audit: withAudit,
    });
    const start = performance.now();
    const outcomes = await session.executeAll(calls);
    const ms = performance.now() - start;
    const failed = outcomes.filter((o) => o.isError).length;
    report(`pipeline.read_1000_one_turn.${withAudit ? "with_audit" : "no_audit"}`, {
      calls: calls.length,
      failed,
      total_ms: round(ms, 1),
      per_call_us: round((ms / calls.length) * 1000, 1),
    });
  }
}
