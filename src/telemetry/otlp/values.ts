/**
 * Attribute values. Types are explicit so a key keeps one type across records (backends such as
 * Elasticsearch map a key to one type): a bigint is an integer, a number a double, a string array
 * an array of strings. Undefined values are left out.
 */
import type { AnyValue, KeyValue } from "./types.ts";

export type AttributeValue = string | boolean | bigint | number | readonly string[] | readonly bigint[];

export type Attributes = Record<string, AttributeValue | undefined>;

export function anyValue(value: AttributeValue): AnyValue {
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "bigint") return { intValue: value };
  if (typeof value === "number") return { doubleValue: value };
  return { arrayValue: { values: value.map((v) => anyValue(v)) } };
}

export function keyValues(attributes: Attributes): KeyValue[] {
  const out: KeyValue[] = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined) out.push({ key, value: anyValue(value) });
  }
  return out;
}

/** A stable key for a set of attributes (metric series, resources). */
export function attributesKey(attributes: Attributes): string {
  return JSON.stringify(
    Object.entries(attributes).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)),
    (_, v) => (typeof v === "bigint" ? `${v}n` : v),
  );
}
