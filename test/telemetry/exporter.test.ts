/**
 * The exporter's promises: a full queue drops and says how many; a collector that hangs costs a
 * flush no more than its deadline and loses nothing (the requests wait in the spool); a hand-over
 * (deadline 0) sends nothing at all; spans nest; nothing a telemetry call does throws.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { resolveTelemetry } from "../../src/telemetry/config.ts";
import { Exporter } from "../../src/telemetry/exporter.ts";
import { type Receiver, startReceiver } from "../helpers/otlp-receiver.ts";
import { tempDir } from "../helpers/session-context.ts";

let receiver: Receiver;
let stateDir: string;

beforeEach(() => {
  receiver = startReceiver();
  stateDir = tempDir("toolrt-exporter-");
});
afterEach(() => receiver.stop());

function exporter(env: Record<string, string> = {}, options: { dropped?: string[] } = {}) {
  const { config } = resolveTelemetry({
    TOOLRT_ENABLE_TELEMETRY: "1",
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    // Timers far away: every export in these tests is an explicit flush.
    OTEL_BLRP_SCHEDULE_DELAY: "3600000",
    OTEL_BSP_SCHEDULE_DELAY: "3600000",
    OTEL_METRIC_EXPORT_INTERVAL: "3600000",
    ...env,
  }, []);
  return new Exporter({
    config: config!,
    env: {},
    stateDir,
    onDropped: (message) => options.dropped?.push(message),
  });
}

const decision = (n: number) => ({
  kind: "decision" as const,
  tool: "Bash",
  decision: "allow" as const,
  source: "toolrt",
  input: { command: `echo ${n}` },
  invokedBy: "cli",
});

const spooled = () => {
  const dir = join(stateDir, "telemetry-spool");
  try {
    return readdirSync(dir).flatMap((key) => readdirSync(join(dir, key)));
  } catch {
    return [];
  }
};

describe("bounded queues", () => {
  test("past the queue size records are dropped, counted, reported, and the count is exported", async () => {
    const dropped: string[] = [];
    const ex = exporter({ OTEL_BLRP_MAX_QUEUE_SIZE: "3", OTEL_BLRP_MAX_EXPORT_BATCH_SIZE: "100" }, {
      dropped,
    });
    const telemetry = ex.telemetry();
    for (let n = 0; n < 5; n++) telemetry.record(decision(n));
    await ex.flush(30_000);
    expect(receiver.logs()).toHaveLength(3);
    expect(dropped).toEqual(["telemetry lost 2 logs (queue_full)"]);
    const lost = receiver.metrics().find((m) => m.name === "toolrt.telemetry.dropped");
    expect(lost?.points).toEqual([{
      attributes: { "toolrt.telemetry.signal": "logs", "toolrt.telemetry.reason": "queue_full" },
      value: "2",
    }]);
  });
});

describe("a collector that hangs", () => {
  test("the flush ends at its deadline and every request waits in the spool", async () => {
    receiver.hold = true;
    const ex = exporter();
    ex.telemetry().record(decision(1));
    await ex.flush(200);
    expect(receiver.received).toEqual([]);
    expect(spooled().map((f) => f.replace(/^[\d-]+\./, "")).sort()).toEqual(["logs.pb", "metrics.pb"]);

    // Later, with the collector back: a flush that may adopt the spool delivers it all.
    receiver.hold = false;
    const later = exporter();
    later.telemetry().record(decision(2));
    await later.flush(30_000, { adoptSpool: true });
    const commands = receiver.logs().map((l) => l.attributes["toolrt.tool.input"]).sort();
    expect(commands).toEqual(['{"command":"echo 1"}', '{"command":"echo 2"}']);
    expect(spooled()).toEqual([]);
  });

  test("a hand-over (deadline 0) sends nothing and keeps everything", async () => {
    const ex = exporter();
    ex.telemetry().record(decision(1));
    await ex.flush(0);
    expect(receiver.received).toEqual([]);
    expect(spooled()).toHaveLength(2);
  });
});

describe("spans", () => {
  test("a call's stages are its children, each closed when the next starts", async () => {
    const ex = exporter();
    const telemetry = ex.telemetry();
    const turn = telemetry.startSpan("toolrt.agent.turn", {});
    const call = telemetry.startCall({ tool: "Bash", toolUseId: "t1" }, turn.context);
    call.stage("validate");
    call.stage("run");
    call.end({ "toolrt.outcome": "error" }, "error");
    turn.end();
    await ex.flush(30_000);
    const spans = receiver.spans();
    const byName = Object.fromEntries(spans.map((s) => [s.name, s]));
    expect(byName["toolrt.tool_call"]?.parentSpanId).toBe(turn.context.spanId);
    expect(byName["toolrt.stage.validate"]?.parentSpanId).toBe(call.context.spanId);
    expect(byName["toolrt.stage.run"]?.parentSpanId).toBe(call.context.spanId);
    expect(byName["toolrt.tool_call"]?.status).toEqual({ code: 2, message: "error" });
    expect(spans).toHaveLength(4);
  });
});

test("telemetry calls never throw, whatever they are given", () => {
  const telemetry = exporter().telemetry();
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  expect(() => telemetry.record({ kind: "decision", input: cyclic, ts: "not a date" })).not.toThrow();
  expect(() => telemetry.record({ kind: "call", durationMs: Number.NaN })).not.toThrow();
});

describe("hook calls through the resident helper's path", () => {
  test("answerHook records each call in the audit log and, from the same place, in telemetry", async () => {
    const { answerHook } = await import("../../src/hook/process.ts");
    const { AuditLog } = await import("../../src/audit/log.ts");
    const { globalsFrom } = await import("../../src/cli/options.ts");
    const cwd = tempDir("toolrt-hook-ws-");
    const audit = AuditLog.inStateDir(stateDir);
    const ex = exporter();
    const stdin = JSON.stringify({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf ~" },
      cwd,
    });
    const answer = await answerHook(
      stdin,
      { host: "codex", sandbox: false },
      globalsFrom({ cwd, stateDir }),
      audit,
      {
        telemetry: ex.telemetry(),
      },
    );
    expect(answer).toContain("deny");
    await ex.flush(30_000);
    const [record] = audit.read();
    const [log] = receiver.logs();
    expect(log?.attributes).toMatchObject({
      "toolrt.hook.host": "codex",
      "toolrt.decision": "deny",
      "toolrt.audit.hash": record!.hash,
      "toolrt.tool.input": JSON.stringify(record!.input),
    });
    // The policy it was decided under names the resource.
    expect(log?.resource["toolrt.policy.default.digest"]).toMatch(/^[0-9a-f]{64}$/);
  });
});
