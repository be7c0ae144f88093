/**
 * The whole output of one process, appended to a file in the state dir as it arrives, so nothing a
 * command prints is lost however large it is. Reads take excerpts (head and tail of a byte range)
 * without loading the range into memory.
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { type Excerpt, excerptFromBytes } from "./excerpt.ts";

export class OutputLog {
  #fd: number | undefined;
  #created = false;
  #bytes = 0;

  constructor(readonly path: string) {}

  /** Bytes written so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Whether the file exists: it is created on the first byte, or by `ensureFile`. */
  get exists(): boolean {
    return this.#created;
  }

  /** Creates the file now if nothing has been written yet (a task's file should exist from the start). */
  ensureFile(): void {
    if (!this.#created) this.#open();
  }

  append(chunk: Uint8Array): void {
    const fd = this.#fd ?? this.#open();
    let written = 0;
    while (written < chunk.length) written += writeSync(fd, chunk, written);
    this.#bytes += chunk.length;
  }

  /** Stops writing; the file stays. */
  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }

  /** Closes and removes the file: for output that reached the model whole. */
  discard(): void {
    this.close();
    if (this.#created) rmSync(this.path, { force: true });
    this.#created = false;
  }

  /** Head and tail of the bytes in `[from, to)`, at most `headBytes + tailBytes` read. */
  excerpt(from: number, to: number, headBytes: number, tailBytes: number): Excerpt {
    const length = Math.max(0, to - from);
    if (length === 0 || !this.exists) return { head: "", tail: "", omittedBytes: 0 };
    if (length <= headBytes + tailBytes) {
      return excerptFromBytes(this.#read(from, length), new Uint8Array(), 0);
    }
    return excerptFromBytes(
      this.#read(from, headBytes),
      this.#read(to - tailBytes, tailBytes),
      length - headBytes - tailBytes,
    );
  }

  #open(): number {
    mkdirSync(dirname(this.path), { recursive: true });
    this.#fd = openSync(this.path, "w");
    this.#created = true;
    return this.#fd;
  }

  #read(position: number, length: number): Uint8Array {
    const buffer = new Uint8Array(length);
    const fd = openSync(this.path, "r");
    try {
      let filled = 0;
      while (filled < length) {
        const n = readSync(fd, buffer, filled, length - filled, position + filled);
        if (n === 0) break;
        filled += n;
      }
      return buffer.subarray(0, filled);
    } finally {
      closeSync(fd);
    }
  }
}
