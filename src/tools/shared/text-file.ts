/** Text files as the editing tools see them: binary refused, line endings normalised and restored. */
import { readFile } from "node:fs/promises";
import { ToolError } from "./errors.ts";

const BINARY_SNIFF_BYTES = 8192;

/** A NUL byte in the first bytes is what `git`, `grep` and `rg` take as the mark of binary data. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  return bytes.subarray(0, end).includes(0);
}

export type LineEnding = "\r\n" | "\n";

export interface TextFile {
  /** Content with `\n` line endings (a BOM, if any, kept as the first character). */
  text: string;
  lineEnding: LineEnding;
}

function lineEndingOf(text: string): LineEnding {
  const newline = text.indexOf("\n");
  return newline > 0 && text[newline - 1] === "\r" ? "\r\n" : "\n";
}

export function withLineEnding(text: string, ending: LineEnding): string {
  return ending === "\n" ? text : text.replaceAll("\n", "\r\n");
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

export function decodeText(bytes: Uint8Array): TextFile {
  const raw = decoder.decode(bytes);
  return { text: raw.replaceAll("\r\n", "\n"), lineEnding: lineEndingOf(raw) };
}

export async function readTextFile(path: string): Promise<TextFile> {
  const bytes = await readFile(path);
  if (looksBinary(bytes)) {
    throw new ToolError(`${path} is a binary file; only text files can be edited.`);
  }
  return decodeText(bytes);
}
