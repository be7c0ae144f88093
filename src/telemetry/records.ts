/**
 * From audit events to OTLP log records and metric points. Pure. The record's attributes are the
 * audit event's fields under OpenTelemetry names; the input is the audit log's own redacted,
 * bounded value (the event carries it already redacted: there is one redaction, in src/audit).
 *
 * - `toolrt.tool_decision`: a decision (pipeline, `check`, or a host's pre-tool hook call);
 * - `toolrt.tool_result`: a finished call (pipeline, or a host's post-tool hook call).
 * Other audit events (hook problems, notices) become `toolrt.notice` records.
 */
import type { RecordedEvent, SpanContext } from "./api.ts";
import type { Attributes } from "./otlp/values.ts";
import { keyValues } from "./otlp/values.ts";
import { type LogRecord, SEVERITY } from "./otlp/types.ts";

export type EventName = "toolrt.tool_decision" | "toolrt.tool_result" | "toolrt.notice";

/** A `hook` event from hook mode is a host's call decided; from the pipeline, a hook that misbehaved. */
export function eventNameOf(event: RecordedEvent): EventName {
  if (event.kind === "decision") return "toolrt.tool_decision";
  if (event.kind === "hook" && hookHostOf(event.invokedBy) !== undefined) return "toolrt.tool_decision";
  if (event.kind === "call") return "toolrt.tool_result";
  return "toolrt.notice";
}

/** The host of a hook call (`hook:codex` → codex). */
export function hookHostOf(invokedBy: string | undefined): string | undefined {
  return invokedBy?.startsWith("hook:") ? invokedBy.slice("hook:".length) : undefined;
}

export function logRecordOf(
  event: RecordedEvent,
  options: { includeInput: boolean; now: bigint; span?: SpanContext },
): LogRecord {
  const name = eventNameOf(event);
  const written = event.ts ? Date.parse(event.ts) : Number.NaN;
  const time = Number.isFinite(written) ? BigInt(written) * 1_000_000n : options.now;
  return {
    timeUnixNano: time,
    observedTimeUnixNano: options.now,
    severityNumber: name === "toolrt.notice" ? SEVERITY.WARN : SEVERITY.INFO,
    severityText: name === "toolrt.notice" ? "WARN" : "INFO",
    eventName: name,
    body: { stringValue: name },
    attributes: keyValues({ "event.name": name, ...attributesOf(event, options.includeInput) }),
    ...(options.span
      ? { traceId: Buffer.from(options.span.traceId, "hex"), spanId: Buffer.from(options.span.spanId, "hex") }
      : {}),
  };
}

/** The audit event's fields as attributes; absent fields are absent attributes. */
export function attributesOf(event: RecordedEvent, includeInput: boolean): Attributes {
  return {
    "gen_ai.tool.name": event.tool,
    "gen_ai.tool.call.id": event.toolUseId,
    "session.id": event.sessionId,
    "toolrt.invoked_by": event.invokedBy,
    "toolrt.hook.host": hookHostOf(event.invokedBy),
    "toolrt.decision": event.decision ?? (eventNameOf(event) === "toolrt.tool_decision" ? "none" : undefined),
    "toolrt.decision.reason": event.reason,
    "toolrt.decision.source": event.source,
    "toolrt.decision.hard_ask": event.hardAsk,
    "toolrt.rule": event.rule,
    "toolrt.rule.id": event.ruleId,
    "toolrt.rule.file": event.file,
    "toolrt.security_checks": event.checks?.map((id) => BigInt(id)),
    "toolrt.permission_mode": event.mode,
    "toolrt.sandboxed": event.sandboxed,
    "toolrt.policy.digest": event.policyDigest,
    "toolrt.tool.input_digest": event.inputDigest,
    "toolrt.tool.input": includeInput && event.input !== undefined ? JSON.stringify(event.input) : undefined,
    "toolrt.outcome": event.outcome,
    "toolrt.duration_ms": event.durationMs,
    "error.type": event.errorClass,
    "toolrt.output.chars": event.outputChars === undefined ? undefined : BigInt(event.outputChars),
    "toolrt.output.persisted": event.persisted,
    "toolrt.detail": event.detail,
    "toolrt.cwd": event.cwd,
    "toolrt.audit.hash": event.hash,
    "toolrt.audit.seq": event.seq === undefined ? undefined : BigInt(event.seq),
  };
}

/** A counter or histogram update a record implies. */
export type MetricUpdate =
  | { kind: "counter"; name: CounterName; attributes: Attributes; by?: number }
  | { kind: "histogram"; name: "toolrt.call.duration"; value: number; attributes: Attributes };

export type CounterName =
  | "toolrt.decisions"
  | "toolrt.calls"
  | "toolrt.prompts"
  | "toolrt.sandbox.violations"
  | "toolrt.telemetry.dropped";

/** Decisions by tool, decision and source; calls and their durations; prompts put to a person. */
export function metricUpdatesOf(event: RecordedEvent): MetricUpdate[] {
  const tool = event.tool;
  const invokedBy = event.invokedBy;
  const updates: MetricUpdate[] = [];
  if (eventNameOf(event) === "toolrt.tool_decision") {
    updates.push({
      kind: "counter",
      name: "toolrt.decisions",
      attributes: {
        "gen_ai.tool.name": tool,
        "toolrt.decision": event.decision ?? "none",
        "toolrt.decision.source": event.source,
        "toolrt.invoked_by": invokedBy,
      },
    });
    // A person is asked: in the pipeline when they answered, in a host when toolrt answered "ask".
    const prompted = event.source === "person" || (event.kind === "hook" && event.decision === "ask");
    if (prompted) {
      updates.push({
        kind: "counter",
        name: "toolrt.prompts",
        attributes: { "gen_ai.tool.name": tool, "toolrt.invoked_by": invokedBy },
      });
    }
  }
  if (event.kind === "call") {
    const attributes = {
      "gen_ai.tool.name": tool,
      "toolrt.outcome": event.outcome,
      "toolrt.invoked_by": invokedBy,
    };
    updates.push({ kind: "counter", name: "toolrt.calls", attributes });
    if (event.durationMs !== undefined) {
      updates.push({ kind: "histogram", name: "toolrt.call.duration", value: event.durationMs, attributes });
    }
  }
  return updates;
}
