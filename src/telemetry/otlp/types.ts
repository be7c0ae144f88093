/**
 * The values of the OTLP messages in schema.ts, typed. 64-bit integers are bigints (times in
 * nanoseconds, counts), ids are bytes, enums their numbers.
 */

export type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: bigint }
  | { doubleValue: number }
  | { arrayValue: { values: AnyValue[] } }
  | { kvlistValue: { values: KeyValue[] } }
  | Record<string, never>;

export interface KeyValue {
  key: string;
  value: AnyValue;
}

export interface Resource {
  attributes: KeyValue[];
}

export interface InstrumentationScope {
  name: string;
  version: string;
}

/** opentelemetry.proto.logs.v1.SeverityNumber: the ones toolrt uses. */
export const SEVERITY = { INFO: 9, WARN: 13 } as const;

export interface LogRecord {
  timeUnixNano: bigint;
  observedTimeUnixNano: bigint;
  severityNumber: number;
  severityText: string;
  eventName: string;
  body: AnyValue;
  attributes: KeyValue[];
  traceId?: Uint8Array;
  spanId?: Uint8Array;
}

/** opentelemetry.proto.trace.v1.Span.SpanKind and Status.StatusCode. */
export const SPAN_KIND = { INTERNAL: 1, SERVER: 2 } as const;
export const STATUS_CODE = { UNSET: 0, OK: 1, ERROR: 2 } as const;

export interface Span {
  traceId: Uint8Array;
  spanId: Uint8Array;
  parentSpanId?: Uint8Array;
  name: string;
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: KeyValue[];
  links?: { traceId: Uint8Array; spanId: Uint8Array; attributes: KeyValue[] }[];
  status: { code: number; message?: string };
}

/** opentelemetry.proto.metrics.v1.AggregationTemporality. */
export const TEMPORALITY = { DELTA: 1, CUMULATIVE: 2 } as const;
export type Temporality = (typeof TEMPORALITY)[keyof typeof TEMPORALITY];

export interface NumberDataPoint {
  attributes: KeyValue[];
  startTimeUnixNano: bigint;
  timeUnixNano: bigint;
  asInt: bigint;
}

export interface HistogramDataPoint {
  attributes: KeyValue[];
  startTimeUnixNano: bigint;
  timeUnixNano: bigint;
  count: bigint;
  sum: number;
  bucketCounts: bigint[];
  explicitBounds: number[];
  min: number;
  max: number;
}

export type Metric =
  & { name: string; description: string; unit: string }
  & (
    | { sum: { dataPoints: NumberDataPoint[]; aggregationTemporality: Temporality; isMonotonic: true } }
    | { histogram: { dataPoints: HistogramDataPoint[]; aggregationTemporality: Temporality } }
  );

/** Export requests, one per signal. */
export interface LogsRequest {
  resourceLogs: {
    resource: Resource;
    scopeLogs: { scope: InstrumentationScope; logRecords: LogRecord[] }[];
  }[];
}
export interface TraceRequest {
  resourceSpans: { resource: Resource; scopeSpans: { scope: InstrumentationScope; spans: Span[] }[] }[];
}
export interface MetricsRequest {
  resourceMetrics: {
    resource: Resource;
    scopeMetrics: { scope: InstrumentationScope; metrics: Metric[] }[];
  }[];
}
