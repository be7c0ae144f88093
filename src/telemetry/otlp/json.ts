/**
 * The OTLP/JSON encoding of a message value by its descriptor (schema.ts): the protobuf JSON
 * mapping with OTLP's rules — lowerCamelCase keys, trace and span ids as hex, 64-bit integers as
 * decimal strings, enums as numbers, other bytes as base64; default values left out as in binary.
 *
 * @example encodeJson(EXPORT_LOGS_REQUEST, { resourceLogs: [] }) // '{}'
 */
import { isDefault } from "./protobuf.ts";
import type { Field, MessageType, Scalar } from "./schema.ts";

export function encodeJson(type: MessageType, value: object): string {
  return JSON.stringify(jsonMessage(type, value as Record<string, unknown>));
}

function jsonMessage(type: MessageType, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of type) {
    const fieldValue = value[field.name];
    if (fieldValue === undefined || fieldValue === null) continue;
    if (field.repeated) {
      const values = fieldValue as unknown[];
      if (values.length > 0) out[field.name] = values.map((v) => jsonOne(field, v));
    } else if (field.presence || !isDefault(field.type, fieldValue)) {
      out[field.name] = jsonOne(field, fieldValue);
    }
  }
  return out;
}

function jsonOne(field: Field, value: unknown): unknown {
  if (typeof field.type === "function") return jsonMessage(field.type(), value as Record<string, unknown>);
  return jsonScalar(field.type, value);
}

function jsonScalar(type: Scalar, value: unknown): unknown {
  switch (type) {
    case "id":
      return Buffer.from(value as Uint8Array).toString("hex");
    case "bytes":
      return Buffer.from(value as Uint8Array).toString("base64");
    case "int64":
    case "fixed64":
    case "sfixed64":
      return BigInt(value as bigint).toString();
    case "double":
      return Number.isFinite(value) ? value : String(value);
    default:
      return value;
  }
}
