/**
 * Protocol Buffers binary encoding of a message value by its descriptor (schema.ts). Only what the
 * OTLP requests use: varints, 64- and 32-bit fixed numbers, doubles, length-delimited strings, bytes
 * and sub-messages, packed repeated scalars. Default values are left out, as proto3 does, except in
 * fields with presence (oneof members).
 *
 * Two passes over the value: the first measures every sub-message (in visiting order), the second
 * writes into one buffer of the exact size, taking each sub-message's length prefix from the first.
 *
 * @example encodeProtobuf(EXPORT_LOGS_REQUEST, { resourceLogs: [] }) // Uint8Array(0)
 */
import type { Field, MessageType, Scalar } from "./schema.ts";

const WIRE = { varint: 0, fixed64: 1, delimited: 2, fixed32: 5 } as const;

type Message = Record<string, unknown>;

export function encodeProtobuf(type: MessageType, value: object): Uint8Array {
  const lengths: number[] = [];
  const size = measureMessage(type, value as Message, lengths);
  const out = new Output(size, lengths);
  writeMessage(out, type, value as Message);
  return out.bytes;
}

/** The fields of a message that are written, and how: each present field once, or each item. */
function present(type: MessageType, value: Message, visit: (field: Field, item: unknown) => void): void {
  for (const field of type) {
    const fieldValue = value[field.name];
    if (fieldValue === undefined || fieldValue === null) continue;
    if (field.repeated) {
      const items = fieldValue as unknown[];
      if (items.length === 0) continue;
      if (isPacked(field)) visit(field, items);
      else for (const item of items) visit(field, item);
    } else if (field.presence || !isDefault(field.type, fieldValue)) {
      visit(field, fieldValue);
    }
  }
}

/** Repeated numbers go as one length-delimited run. */
function isPacked(field: Field): boolean {
  return field.repeated === true && typeof field.type !== "function" && field.type !== "string" &&
    field.type !== "bytes" && field.type !== "id";
}

function measureMessage(type: MessageType, value: Message, lengths: number[]): number {
  let size = 0;
  present(type, value, (field, item) => {
    size += varintSize((field.no << 3) >>> 0);
    let body: number;
    if (typeof field.type === "function") {
      const slot = lengths.push(0) - 1;
      body = measureMessage(field.type(), item as Message, lengths);
      lengths[slot] = body;
    } else if (isPacked(field)) {
      body = 0;
      for (const number of item as unknown[]) body += scalarSize(field.type, number);
    } else {
      size += scalarSize(field.type, item);
      return;
    }
    size += varintSize(body) + body;
  });
  return size;
}

function writeMessage(out: Output, type: MessageType, value: Message): void {
  present(type, value, (field, item) => {
    if (typeof field.type === "function") {
      out.varint((field.no << 3) | WIRE.delimited);
      out.varint(out.nextLength());
      writeMessage(out, field.type(), item as Message);
    } else if (isPacked(field)) {
      const items = item as unknown[];
      let body = 0;
      for (const number of items) body += scalarSize(field.type, number);
      out.varint((field.no << 3) | WIRE.delimited);
      out.varint(body);
      for (const number of items) writeScalar(out, field.type, number);
    } else {
      out.varint((field.no << 3) | wireOf(field.type));
      writeScalar(out, field.type, item);
    }
  });
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

/** Bytes a scalar takes after its tag (with its length prefix, for strings and bytes). */
function scalarSize(type: Scalar, value: unknown): number {
  switch (type) {
    case "string": {
      const bytes = Buffer.byteLength(value as string);
      return varintSize(bytes) + bytes;
    }
    case "bytes":
    case "id": {
      const bytes = (value as Uint8Array).length;
      return varintSize(bytes) + bytes;
    }
    case "bool":
      return 1;
    case "double":
    case "fixed64":
    case "sfixed64":
      return 8;
    case "fixed32":
      return 4;
    default:
      return varintSize(value as number | bigint);
  }
}

function writeScalar(out: Output, type: Scalar, value: unknown): void {
  switch (type) {
    case "string":
      out.string(value as string);
      return;
    case "bytes":
    case "id":
      out.varint((value as Uint8Array).length);
      out.raw(value as Uint8Array);
      return;
    case "bool":
      out.varint(value ? 1 : 0);
      return;
    case "double":
      out.view.setFloat64(out.advance(8), value as number, true);
      return;
    case "fixed64":
      out.view.setBigUint64(out.advance(8), BigInt.asUintN(64, BigInt(value as bigint)), true);
      return;
    case "sfixed64":
      out.view.setBigInt64(out.advance(8), BigInt.asIntN(64, BigInt(value as bigint)), true);
      return;
    case "fixed32":
      out.view.setUint32(out.advance(4), value as number, true);
      return;
    default:
      out.varint(value as number | bigint);
  }
}

/** A number is written as a plain varint when it fits 31 bits, as a 64-bit two's complement otherwise. */
function isSmall(value: number | bigint): value is number {
  return typeof value === "number" && value >= 0 && value <= 0x7fffffff;
}

function varintSize(value: number | bigint): number {
  if (isSmall(value)) {
    return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
  }
  let rest = BigInt.asUintN(64, BigInt(value));
  let size = 1;
  while (rest > 0x7fn) {
    rest >>= 7n;
    size++;
  }
  return size;
}

const utf8 = new TextEncoder();

class Output {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  #at = 0;
  #length = 0;

  constructor(size: number, private readonly lengths: number[]) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }

  /** The measured length of the next sub-message, in the order the first pass met them. */
  nextLength(): number {
    return this.lengths[this.#length++]!;
  }

  /** Moves past `bytes` bytes; returns where they start. */
  advance(bytes: number): number {
    const at = this.#at;
    this.#at += bytes;
    return at;
  }

  varint(value: number | bigint): void {
    if (isSmall(value)) {
      let rest = value;
      while (rest > 0x7f) {
        this.bytes[this.#at++] = (rest & 0x7f) | 0x80;
        rest >>>= 7;
      }
      this.bytes[this.#at++] = rest;
      return;
    }
    let rest = BigInt.asUintN(64, BigInt(value));
    while (rest > 0x7fn) {
      this.bytes[this.#at++] = Number(rest & 0x7fn) | 0x80;
      rest >>= 7n;
    }
    this.bytes[this.#at++] = Number(rest);
  }

  raw(bytes: Uint8Array): void {
    this.bytes.set(bytes, this.#at);
    this.#at += bytes.length;
  }

  string(text: string): void {
    const length = Buffer.byteLength(text);
    this.varint(length);
    utf8.encodeInto(text, this.bytes.subarray(this.#at, this.#at + length));
    this.#at += length;
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
