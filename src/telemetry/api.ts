/**
 * What the rest of toolrt sees of telemetry. Callers hold a `Telemetry` only when it is on (an
 * undefined one is off, and costs nothing); every method returns at once and never throws — export
 * happens in the background, in batches, and a collector that is down never reaches a tool call.
 */
import type { AuditEvent } from "../audit/log.ts";
import type { Attributes } from "./otlp/values.ts";

/** A span's identity, as W3C traceparent carries it: 32 and 16 hex digits. */
export interface SpanContext {
  traceId: string;
  spanId: string;
}

/** A decision or call as the audit log records it; `hash` and `seq` when it was written there. */
export type RecordedEvent = AuditEvent & { hash?: string; seq?: number; ts?: string };

/** The pipeline's stages, each a child span of the call. */
export type StageName = "validate" | "hooks" | "permission" | "run" | "shape" | "post_hooks";

export interface ActiveSpan {
  readonly context: SpanContext;
  setAttributes(attributes: Attributes): void;
  /** Ends the span; an error message marks it failed. */
  end(error?: string): void;
}

/** The span of one tool call: `stage()` closes the running stage and opens the next. */
export interface CallTrace {
  readonly context: SpanContext;
  stage(name: StageName): void;
  end(attributes: Attributes, error?: string): void;
}

/** The policy a record was decided under: per-source digests for the resource, one for the record. */
export interface PolicyDigests {
  digest: string;
  sources: Record<string, string>;
}

export interface Telemetry {
  /** Whether decisions carry the redacted input (the policy's `includeInput`). */
  readonly includeInput: boolean;
  /** The same exporter, its records' resource naming this policy. */
  withPolicy(policy: PolicyDigests | undefined): Telemetry;
  /** A decision or call: a log record (`toolrt.tool_decision`, `toolrt.tool_result`) and its metrics. */
  record(event: RecordedEvent, span?: SpanContext): void;
  startSpan(name: string, attributes: Attributes, parent?: SpanContext): ActiveSpan;
  startCall(
    call: { tool: string; toolUseId: string; sessionId?: string; invokedBy?: string },
    parent?: SpanContext,
  ): CallTrace;
  /** A command the sandbox stopped from doing something (a blocked write, host, read). */
  sandboxViolation(kind: string): void;
  /** Sends what is queued, waiting at most `deadlineMs`; what is not delivered by then is kept for later. */
  flush(deadlineMs: number): Promise<void>;
}
