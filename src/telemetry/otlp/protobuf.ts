/**
 * Protocol Buffers binary encoding of a message value by its descriptor (schema.ts). Only what the
 * OTLP requests use: varints, 64- and 32-bit fixed numbers, doubles, length-delimited strings, bytes
 * and sub-messages, packed repeated scalars. Default values are left out, as proto3 does, except in
 * fields with presence (oneof members).
 *
 * @example encodeProtobuf(EXPORT_LOGS_REQUEST, { resourceLogs: [] }) // Uint8Array(0)
 */
import type { Field, MessageType, Scalar } from "./schema.ts";

const WIRE = { varint: 0, fixed64: 1, delimited: 2, fixed32: 5 } as const;

class Writer {
  #chunks: Uint8Array[] = [];
  #current = new Uint8Array(256);
  #at = 0;
  length = 0;

  #room(bytes: number): void {
    if (this.#at + bytes <= this.#current.length) return;
    this.#chunks.push(this.#current.subarray(0, this.#at));
    this.#current = new Uint8Array(Math.max(256, bytes, this.#current.length * 2));
    this.#at = 0;
  }

  byte(value: number): void {
    this.#room(1);
    this.#current[this.#at++] = value;
    this.length++;
  }

  varint(value: bigint | number): void {
    let rest = BigInt.asUintN(64, BigInt(value));
    while (rest > 0x7fn) {
      this.byte(Number(rest & 0x7fn) | 0x80);
      rest >>= 7n;
    }
    this.byte(Number(rest));
  }

  tag(no: number, wire: number): void {
    this.varint((no << 3) | wire);
  }

  raw(bytes: Uint8Array): void {
    this.#room(bytes.length);
    this.#current.set(bytes, this.#at);
    this.#at += bytes.length;
    this.length += bytes.length;
  }

  fixed(bytes: number, write: (view: DataView) => void): void {
    const buffer = new Uint8Array(bytes);
    write(new DataView(buffer.buffer));
    this.raw(buffer);
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const chunk of [...this.#chunks, this.#current.subarray(0, this.#at)]) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}

const utf8 = new TextEncoder();

export function encodeProtobuf(type: MessageType, value: object): Uint8Array {
  const writer = new Writer();
  writeMessage(writer, type, value as Record<string, unknown>);
  return writer.finish();
}

function writeMessage(writer: Writer, type: MessageType, value: Record<string, unknown>): void {
  for (const field of type) {
    const fieldValue = value[field.name];
    if (fieldValue === undefined || fieldValue === null) continue;
    if (field.repeated) writeRepeated(writer, field, fieldValue as unknown[]);
    else if (field.presence || !isDefault(field.type, fieldValue)) writeOne(writer, field, fieldValue);
  }
}

function writeRepeated(writer: Writer, field: Field, values: unknown[]): void {
  if (values.length === 0) return;
  if (typeof field.type === "function" || field.type === "string" || field.type === "bytes") {
    for (const value of values) writeOne(writer, field, value);
    return;
  }
  // Packed: one length-delimited run of the scalars.
  const packed = new Writer();
  for (const value of values) writeScalar(packed, field.type, value);
  writer.tag(field.no, WIRE.delimited);
  writer.varint(packed.length);
  writer.raw(packed.finish());
}

function writeOne(writer: Writer, field: Field, value: unknown): void {
  if (typeof field.type === "function") {
    const inner = new Writer();
    writeMessage(inner, field.type(), value as Record<string, unknown>);
    writer.tag(field.no, WIRE.delimited);
    writer.varint(inner.length);
    writer.raw(inner.finish());
    return;
  }
  writer.tag(field.no, wireOf(field.type));
  writeScalar(writer, field.type, value);
}

function wireOf(type: Scalar): number {
  switch (type) {
    case "fixed64":
    case "sfixed64":
    case "double":
      return WIRE.fixed64;
    case "fixed32":
      return WIRE.fixed32;
    case "string":
    case "bytes":
    case "id":
      return WIRE.delimited;
    default:
      return WIRE.varint;
  }
}

function writeScalar(writer: Writer, type: Scalar, value: unknown): void {
  switch (type) {
    case "string": {
      const bytes = utf8.encode(value as string);
      writer.varint(bytes.length);
      writer.raw(bytes);
      return;
    }
    case "bytes":
    case "id": {
      const bytes = value as Uint8Array;
      writer.varint(bytes.length);
      writer.raw(bytes);
      return;
    }
    case "bool":
      writer.byte(value ? 1 : 0);
      return;
    case "int64":
    case "uint32":
    case "enum":
      writer.varint(value as bigint | number);
      return;
    case "double":
      writer.fixed(8, (view) => view.setFloat64(0, value as number, true));
      return;
    case "fixed64":
      writer.fixed(8, (view) => view.setBigUint64(0, BigInt.asUintN(64, BigInt(value as bigint)), true));
      return;
    case "sfixed64":
      writer.fixed(8, (view) => view.setBigInt64(0, BigInt(value as bigint), true));
      return;
    case "fixed32":
      writer.fixed(4, (view) => view.setUint32(0, value as number, true));
      return;
  }
}

/** Whether proto3 would leave this value out (zero, empty, false). */
export function isDefault(type: Field["type"], value: unknown): boolean {
  if (typeof type === "function") return false;
  switch (type) {
    case "string":
      return value === "";
    case "bytes":
    case "id":
      return (value as Uint8Array).length === 0;
    case "bool":
      return value === false;
    default:
      return value === 0 || value === 0n;
  }
}
