/**
 * Text excerpts of byte streams: the head and the tail of a long output, decoded without cutting a
 * UTF-8 character in half, and how many bytes lay between them.
 */

export interface Excerpt {
  /** The start of the output, or all of it when nothing was omitted. */
  head: string;
  /** The end of the output; empty when nothing was omitted. */
  tail: string;
  /** Bytes between head and tail that are not in the excerpt. */
  omittedBytes: number;
}

/** Decodes a head and a tail slice; when nothing lies between them they are decoded as one. */
export function excerptFromBytes(head: Uint8Array, tail: Uint8Array, omittedBytes: number): Excerpt {
  if (omittedBytes === 0) return { head: decode(concat(head, tail)), tail: "", omittedBytes: 0 };
  const droppedAtCuts = incompleteTrailingBytes(head) + leadingContinuationBytes(tail);
  return {
    head: decode(head.subarray(0, head.length - incompleteTrailingBytes(head))),
    tail: decode(tail.subarray(leadingContinuationBytes(tail))),
    omittedBytes: omittedBytes + droppedAtCuts,
  };
}

/** Joins an excerpt into one text, with `marker(omittedBytes)` where bytes were left out. */
export function joinExcerpt(excerpt: Excerpt, marker: (omittedBytes: number) => string): string {
  if (excerpt.omittedBytes === 0) return excerpt.head + excerpt.tail;
  return `${excerpt.head}\n${marker(excerpt.omittedBytes)}\n${excerpt.tail}`;
}

function decode(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const isContinuation = (byte: number) => (byte & 0xc0) === 0x80;

/** Bytes at the start that continue a character begun before the cut (at most 3). */
function leadingContinuationBytes(bytes: Uint8Array): number {
  let n = 0;
  while (n < 3 && n < bytes.length && isContinuation(bytes[n]!)) n++;
  return n;
}

/** Bytes at the end that start a character the cut left unfinished. */
function incompleteTrailingBytes(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if (isContinuation(byte)) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}
