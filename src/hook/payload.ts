/** Small readers for untrusted hook payloads: nothing here throws on a wrong shape. */

import type { RunsIn } from "./types.ts";

export type Fields = Record<string, unknown>;

export function fieldsOf(value: unknown): Fields | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value as Fields : undefined;
}

/** The first of `keys` that holds a string. */
export function text(fields: Fields | undefined, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = fields?.[key];
    if (typeof value === "string") return value;
  }
  return undefined;
}

export function numberField(fields: Fields | undefined, key: string): number | undefined {
  const value = fields?.[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** An object field, also when the host sends it as a JSON string (Copilot CLI, Cursor MCP). */
export function objectField(fields: Fields | undefined, key: string): Fields | undefined {
  const value = fields?.[key];
  if (typeof value !== "string") return fieldsOf(value);
  try {
    return fieldsOf(JSON.parse(value));
  } catch {
    return undefined;
  }
}

/** Only the given keys, and only those present: the input toolrt's policy reads. */
export function pick(fields: Fields, renames: Record<string, string>): Fields {
  const out: Fields = {};
  for (const [from, to] of Object.entries(renames)) {
    if (fields[from] !== undefined) out[to] = fields[from];
  }
  return out;
}

/** The first of `keys` present, as the directory a shell call runs in; anything but a non-empty string is unreadable. */
export function runsIn(fields: Fields | undefined, ...keys: string[]): { runsIn?: RunsIn } {
  const key = keys.find((k) => fields?.[k] !== undefined && fields[k] !== null);
  if (key === undefined) return {};
  const value = fields![key];
  return typeof value === "string" && value !== "" && !value.includes("\0")
    ? { runsIn: { dir: value } }
    : { runsIn: { unreadable: `its ${key} is ${kindOf(value)}, not a directory name` } };
}

function kindOf(value: unknown): string {
  if (typeof value === "string") return value === "" ? "empty" : "a string with a NUL byte";
  return Array.isArray(value) ? "an array" : `a ${typeof value}`;
}
