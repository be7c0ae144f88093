/**
 * A window of lines from a text file, read in fixed-size blocks: only the lines inside the window
 * are decoded, the rest are counted with a byte scan, so an offset near the end of a large file
 * costs one pass of `indexOf` and no string splitting.
 */
import { open } from "node:fs/promises";

export interface LineWindowOptions {
  /** First line to return, 1-based. */
  offset: number;
  limit: number;
  /** Longer lines are cut to this many characters. */
  maxLineChars: number;
  /** Stop collecting lines once the window holds this many characters... */
  maxChars: number;
  /** ...counting this many more per line (for the number column the caller adds). */
  lineOverheadChars: number;
}

export interface LineWindow {
  lines: string[];
  totalLines: number;
  /** How many returned lines were cut to `maxLineChars`. */
  shortenedLines: number;
  /** Collection stopped early because the window reached `maxChars`. */
  cutAtChars: boolean;
}

const BLOCK_BYTES = 256 * 1024;
const NEWLINE = 10;
const decoder = new TextDecoder();

export async function readLineWindow(path: string, opts: LineWindowOptions): Promise<LineWindow> {
  const lastWanted = opts.offset + opts.limit - 1;
  // A UTF-8 character is at most 4 bytes: this many bytes always hold maxLineChars characters.
  const maxLineBytes = opts.maxLineChars * 4 + 4;
  const lines: string[] = [];
  let shortenedLines = 0;
  let chars = 0;
  let cutAtChars = false;
  let lineNo = 1;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let endsWithNewline = false;
  let sawBytes = false;

  const collecting = () => lineNo >= opts.offset && lineNo <= lastWanted && !cutAtChars;
  const finishLine = () => {
    if (collecting()) {
      let text = decoder.decode(concat(pending, pendingBytes));
      if (text.endsWith("\r")) text = text.slice(0, -1);
      if (text.length > opts.maxLineChars || pendingBytes >= maxLineBytes) {
        text = `${text.slice(0, opts.maxLineChars)}… [line truncated]`;
        shortenedLines++;
      }
      chars += text.length + opts.lineOverheadChars;
      if (chars > opts.maxChars && lines.length > 0) cutAtChars = true;
      else lines.push(text);
    }
    pending = [];
    pendingBytes = 0;
    lineNo++;
  };

  const file = await open(path, "r");
  try {
    const block = new Uint8Array(BLOCK_BYTES);
    while (true) {
      const { bytesRead } = await file.read(block, 0, BLOCK_BYTES, null);
      if (bytesRead === 0) break;
      sawBytes = true;
      const chunk = block.subarray(0, bytesRead);
      endsWithNewline = chunk[bytesRead - 1] === NEWLINE;
      let pos = 0;
      while (pos < chunk.length) {
        const newline = chunk.indexOf(NEWLINE, pos);
        const end = newline === -1 ? chunk.length : newline;
        if (collecting() && pendingBytes < maxLineBytes) {
          const piece = chunk.slice(pos, Math.min(end, pos + maxLineBytes - pendingBytes));
          pending.push(piece);
          pendingBytes += piece.length;
        }
        if (newline === -1) break;
        finishLine();
        pos = newline + 1;
      }
    }
  } finally {
    await file.close();
  }
  if (sawBytes && !endsWithNewline) finishLine();
  return { lines, totalLines: lineNo - 1, shortenedLines, cutAtChars };
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
