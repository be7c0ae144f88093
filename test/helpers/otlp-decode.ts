/**
 * Decodes OTLP requests with the official definitions: the protobufjs code that
 * @opentelemetry/otlp-transformer (a devDependency, tests only) generates from opentelemetry-proto.
 * Both encodings come out in one shape — OTLP/JSON's: camelCase keys, ids in hex, 64-bit integers
 * as decimal strings, enums as numbers, default values absent — so a protobuf body and a JSON body
 * can be compared with each other and with what a test expects.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const root = require("@opentelemetry/otlp-transformer/build/src/generated/root.js");
const collector = root.opentelemetry.proto.collector;

export type Signal = "logs" | "metrics" | "traces";

interface ProtoType {
  decode(bytes: Uint8Array): unknown;
  fromObject(object: unknown): unknown;
  toObject(message: unknown, options: Record<string, unknown>): Record<string, unknown>;
}

const REQUEST: Record<Signal, ProtoType> = {
  logs: collector.logs.v1.ExportLogsServiceRequest,
  metrics: collector.metrics.v1.ExportMetricsServiceRequest,
  traces: collector.trace.v1.ExportTraceServiceRequest,
};

const ID_FIELDS = new Set(["traceId", "spanId", "parentSpanId"]);
const TO_OBJECT = { longs: String, enums: Number, bytes: String, defaults: false, arrays: false };

export function decodeOtlpProtobuf(signal: Signal, body: Uint8Array): Record<string, unknown> {
  const type = REQUEST[signal];
  return mapIds(
    type.toObject(type.decode(body), TO_OBJECT),
    (b64) => Buffer.from(b64, "base64").toString("hex"),
  );
}

/** Parses an OTLP/JSON body and checks it against the definitions: unknown keys or wrong types throw. */
export function decodeOtlpJson(signal: Signal, text: string): Record<string, unknown> {
  const type = REQUEST[signal];
  const parsed = JSON.parse(text);
  const asProto = mapIds(parsed, (hex) => Buffer.from(hex, "hex").toString("base64"));
  const normalized = mapIds(
    type.toObject(type.fromObject(asProto), TO_OBJECT),
    (b64) => Buffer.from(b64, "base64").toString("hex"),
  );
  // fromObject drops what the definitions do not know and coerces what has the wrong type: the
  // round trip gives the input back only when every key and type is right.
  if (!Bun.deepEquals(normalized, parsed, true)) {
    throw new Error(`${signal} request has fields the definitions do not know:\n${text}`);
  }
  return normalized;
}

function mapIds(value: unknown, convert: (id: string) => string): any {
  if (Array.isArray(value)) return value.map((v) => mapIds(v, convert));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map((
        [k, v],
      ) => [k, ID_FIELDS.has(k) && typeof v === "string" ? convert(v) : mapIds(v, convert)]),
    );
  }
  return value;
}
