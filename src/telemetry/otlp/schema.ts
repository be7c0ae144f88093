/**
 * The OTLP messages toolrt sends, described once (names and numbers from opentelemetry-proto:
 * common, resource, logs, trace and metrics v1, and the three collector service requests). Both
 * encodings walk these descriptors: protobuf.ts writes the binary wire format, json.ts the OTLP/JSON
 * mapping. A message value is a plain object keyed by the field names below (lowerCamelCase, as
 * OTLP/JSON spells them).
 */

export type Scalar =
  | "string"
  | "bool"
  | "int64"
  | "uint32"
  | "enum"
  | "double"
  | "fixed64"
  | "sfixed64"
  | "fixed32"
  | "bytes"
  /** 16- or 8-byte trace and span ids: bytes on the wire, hex strings in OTLP/JSON. */
  | "id";

export interface Field {
  name: string;
  no: number;
  type: Scalar | (() => MessageType);
  repeated?: true;
  /** Written even when it holds the default value (a oneof member or an `optional` field). */
  presence?: true;
}

export type MessageType = readonly Field[];

const field = (name: string, no: number, type: Field["type"], extra: Partial<Field> = {}): Field => ({
  name,
  no,
  type,
  ...extra,
});
const repeated = (name: string, no: number, type: Field["type"]) => field(name, no, type, { repeated: true });
const oneOf = (name: string, no: number, type: Field["type"]) => field(name, no, type, { presence: true });

// opentelemetry.proto.common.v1
export const ANY_VALUE: MessageType = [
  oneOf("stringValue", 1, "string"),
  oneOf("boolValue", 2, "bool"),
  oneOf("intValue", 3, "int64"),
  oneOf("doubleValue", 4, "double"),
  oneOf("arrayValue", 5, () => ARRAY_VALUE),
  oneOf("kvlistValue", 6, () => KEY_VALUE_LIST),
  oneOf("bytesValue", 7, "bytes"),
];
export const ARRAY_VALUE: MessageType = [repeated("values", 1, () => ANY_VALUE)];
export const KEY_VALUE: MessageType = [field("key", 1, "string"), field("value", 2, () => ANY_VALUE)];
export const KEY_VALUE_LIST: MessageType = [repeated("values", 1, () => KEY_VALUE)];
export const INSTRUMENTATION_SCOPE: MessageType = [
  field("name", 1, "string"),
  field("version", 2, "string"),
  repeated("attributes", 3, () => KEY_VALUE),
];

// opentelemetry.proto.resource.v1
export const RESOURCE: MessageType = [
  repeated("attributes", 1, () => KEY_VALUE),
  field("droppedAttributesCount", 2, "uint32"),
];

// opentelemetry.proto.logs.v1
export const LOG_RECORD: MessageType = [
  field("timeUnixNano", 1, "fixed64"),
  field("severityNumber", 2, "enum"),
  field("severityText", 3, "string"),
  field("body", 5, () => ANY_VALUE),
  repeated("attributes", 6, () => KEY_VALUE),
  field("flags", 8, "fixed32"),
  field("traceId", 9, "id"),
  field("spanId", 10, "id"),
  field("observedTimeUnixNano", 11, "fixed64"),
  field("eventName", 12, "string"),
];
const SCOPE_LOGS: MessageType = [
  field("scope", 1, () => INSTRUMENTATION_SCOPE),
  repeated("logRecords", 2, () => LOG_RECORD),
];
const RESOURCE_LOGS: MessageType = [
  field("resource", 1, () => RESOURCE),
  repeated("scopeLogs", 2, () => SCOPE_LOGS),
];
export const EXPORT_LOGS_REQUEST: MessageType = [repeated("resourceLogs", 1, () => RESOURCE_LOGS)];

// opentelemetry.proto.trace.v1
const SPAN_LINK: MessageType = [
  field("traceId", 1, "id"),
  field("spanId", 2, "id"),
  field("traceState", 3, "string"),
  repeated("attributes", 4, () => KEY_VALUE),
  field("flags", 6, "fixed32"),
];
const STATUS: MessageType = [field("message", 2, "string"), field("code", 3, "enum")];
export const SPAN: MessageType = [
  field("traceId", 1, "id"),
  field("spanId", 2, "id"),
  field("traceState", 3, "string"),
  field("parentSpanId", 4, "id"),
  field("name", 5, "string"),
  field("kind", 6, "enum"),
  field("startTimeUnixNano", 7, "fixed64"),
  field("endTimeUnixNano", 8, "fixed64"),
  repeated("attributes", 9, () => KEY_VALUE),
  repeated("links", 13, () => SPAN_LINK),
  field("status", 15, () => STATUS),
  field("flags", 16, "fixed32"),
];
const SCOPE_SPANS: MessageType = [
  field("scope", 1, () => INSTRUMENTATION_SCOPE),
  repeated("spans", 2, () => SPAN),
];
const RESOURCE_SPANS: MessageType = [
  field("resource", 1, () => RESOURCE),
  repeated("scopeSpans", 2, () => SCOPE_SPANS),
];
export const EXPORT_TRACE_REQUEST: MessageType = [repeated("resourceSpans", 1, () => RESOURCE_SPANS)];

// opentelemetry.proto.metrics.v1
const NUMBER_DATA_POINT: MessageType = [
  field("startTimeUnixNano", 2, "fixed64"),
  field("timeUnixNano", 3, "fixed64"),
  oneOf("asDouble", 4, "double"),
  oneOf("asInt", 6, "sfixed64"),
  repeated("attributes", 7, () => KEY_VALUE),
];
const HISTOGRAM_DATA_POINT: MessageType = [
  field("startTimeUnixNano", 2, "fixed64"),
  field("timeUnixNano", 3, "fixed64"),
  field("count", 4, "fixed64"),
  oneOf("sum", 5, "double"),
  repeated("bucketCounts", 6, "fixed64"),
  repeated("explicitBounds", 7, "double"),
  repeated("attributes", 9, () => KEY_VALUE),
  oneOf("min", 11, "double"),
  oneOf("max", 12, "double"),
];
const SUM: MessageType = [
  repeated("dataPoints", 1, () => NUMBER_DATA_POINT),
  field("aggregationTemporality", 2, "enum"),
  field("isMonotonic", 3, "bool"),
];
const HISTOGRAM: MessageType = [
  repeated("dataPoints", 1, () => HISTOGRAM_DATA_POINT),
  field("aggregationTemporality", 2, "enum"),
];
export const METRIC: MessageType = [
  field("name", 1, "string"),
  field("description", 2, "string"),
  field("unit", 3, "string"),
  oneOf("sum", 7, () => SUM),
  oneOf("histogram", 9, () => HISTOGRAM),
];
const SCOPE_METRICS: MessageType = [
  field("scope", 1, () => INSTRUMENTATION_SCOPE),
  repeated("metrics", 2, () => METRIC),
];
const RESOURCE_METRICS: MessageType = [
  field("resource", 1, () => RESOURCE),
  repeated("scopeMetrics", 2, () => SCOPE_METRICS),
];
export const EXPORT_METRICS_REQUEST: MessageType = [repeated("resourceMetrics", 1, () => RESOURCE_METRICS)];
