/**
 * A byte stream kept in bounded memory: the first `headBytes` and the last `tailBytes`, plus a
 * count of everything that passed through. A 100 MB output costs `headBytes + tailBytes`.
 */
import { type Excerpt, excerptFromBytes } from "./excerpt.ts";

export class HeadTailBuffer {
  #head: Uint8Array | undefined;
  #headLength = 0;
  /** A ring: `#tailStart` is the oldest byte, `#tailLength` how many are valid. */
  #tail: Uint8Array | undefined;
  #tailStart = 0;
  #tailLength = 0;
  #total = 0;

  constructor(readonly headBytes: number, readonly tailBytes: number) {}

  get totalBytes(): number {
    return this.#total;
  }

  push(chunk: Uint8Array): void {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headLength < this.headBytes) {
      // Allocated on first use: many processes never print anything.
      this.#head ??= new Uint8Array(this.headBytes);
      const n = Math.min(this.headBytes - this.#headLength, rest.length);
      this.#head.set(rest.subarray(0, n), this.#headLength);
      this.#headLength += n;
      rest = rest.subarray(n);
    }
    if (rest.length > 0 && this.tailBytes > 0) this.#pushTail(rest);
  }

  excerpt(): Excerpt {
    const head = this.#head?.subarray(0, this.#headLength) ?? new Uint8Array();
    const omitted = this.#total - this.#headLength - this.#tailLength;
    return excerptFromBytes(head, this.#orderedTail(), omitted);
  }

  #pushTail(bytes: Uint8Array): void {
    const capacity = this.tailBytes;
    const ring = (this.#tail ??= new Uint8Array(capacity));
    if (bytes.length >= capacity) {
      ring.set(bytes.subarray(bytes.length - capacity));
      this.#tailStart = 0;
      this.#tailLength = capacity;
      return;
    }
    const writeAt = (this.#tailStart + this.#tailLength) % capacity;
    const firstPart = Math.min(bytes.length, capacity - writeAt);
    ring.set(bytes.subarray(0, firstPart), writeAt);
    ring.set(bytes.subarray(firstPart), 0);
    const length = this.#tailLength + bytes.length;
    if (length > capacity) this.#tailStart = (this.#tailStart + length - capacity) % capacity;
    this.#tailLength = Math.min(length, capacity);
  }

  #orderedTail(): Uint8Array {
    const ring = this.#tail;
    if (!ring || this.#tailLength === 0) return new Uint8Array();
    const end = this.#tailStart + this.#tailLength;
    if (end <= ring.length) return ring.slice(this.#tailStart, end);
    const out = new Uint8Array(this.#tailLength);
    out.set(ring.subarray(this.#tailStart));
    out.set(ring.subarray(0, end - ring.length), ring.length - this.#tailStart);
    return out;
  }
}
