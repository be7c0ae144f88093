/**
 * Trace and span ids, W3C `traceparent`, and the spans of one tool call (a parent span and one
 * child per pipeline stage). Spans are handed to `emit` when they end.
 */
import { randomFillSync } from "node:crypto";
import type { ActiveSpan, CallTrace, SpanContext, StageName } from "./api.ts";
import { type Attributes, keyValues } from "./otlp/values.ts";
import { type Span, SPAN_KIND, STATUS_CODE } from "./otlp/types.ts";

export function randomId(bytes: 16 | 8): string {
  for (;;) {
    const id = randomFillSync(Buffer.alloc(bytes)).toString("hex");
    if (!/^0+$/.test(id)) return id;
  }
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

/** The span a W3C `traceparent` names; undefined for anything malformed or all-zero. */
export function parseTraceparent(value: unknown): SpanContext | undefined {
  if (typeof value !== "string") return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  return { traceId: match[1]!, spanId: match[2]! };
}

export function nowNanos(): bigint {
  return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000)) * 1000n;
}

type Emit = (span: Span) => void;

export function startSpan(
  emit: Emit,
  name: string,
  attributes: Attributes,
  parent?: SpanContext,
  kind: number = SPAN_KIND.INTERNAL,
): ActiveSpan {
  const context = { traceId: parent?.traceId ?? randomId(16), spanId: randomId(8) };
  const start = nowNanos();
  let extra: Attributes = {};
  let ended = false;
  return {
    context,
    setAttributes(more) {
      extra = { ...extra, ...more };
    },
    end(error) {
      if (ended) return;
      ended = true;
      emit({
        traceId: Buffer.from(context.traceId, "hex"),
        spanId: Buffer.from(context.spanId, "hex"),
        ...(parent ? { parentSpanId: Buffer.from(parent.spanId, "hex") } : {}),
        name,
        kind,
        startTimeUnixNano: start,
        endTimeUnixNano: nowNanos(),
        attributes: keyValues({ ...attributes, ...extra }),
        status: error === undefined
          ? { code: STATUS_CODE.UNSET }
          : { code: STATUS_CODE.ERROR, message: error },
      });
    },
  };
}

/** `toolrt.tool_call` with `toolrt.stage.<name>` children, one running at a time. */
export function startCallTrace(emit: Emit, attributes: Attributes, parent?: SpanContext): CallTrace {
  const call = startSpan(emit, "toolrt.tool_call", attributes, parent);
  let running: ActiveSpan | undefined;
  return {
    context: call.context,
    stage(name: StageName) {
      running?.end();
      running = startSpan(emit, `toolrt.stage.${name}`, { "toolrt.stage": name }, call.context);
    },
    end(more, error) {
      running?.end();
      running = undefined;
      call.setAttributes(more);
      call.end(error);
    },
  };
}
