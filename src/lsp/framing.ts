/**
 * The LSP base protocol on a byte stream: each message is `Content-Length: N\r\n\r\n` followed by N
 * bytes of UTF-8 JSON. Lengths count bytes, not characters, so the decoder works on bytes.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const HEADER_END = encoder.encode("\r\n\r\n");

export function encodeMessage(message: unknown): Uint8Array {
  const body = encoder.encode(JSON.stringify(message));
  const header = encoder.encode(`Content-Length: ${body.length}\r\n\r\n`);
  const framed = new Uint8Array(header.length + body.length);
  framed.set(header);
  framed.set(body, header.length);
  return framed;
}

/** Collects chunks as they arrive and hands out every complete message; keeps the partial rest. */
export class MessageDecoder {
  #buffer: Uint8Array = new Uint8Array(0);

  /** Returns the messages completed by `chunk`; throws on a header without a usable length. */
  push(chunk: Uint8Array): unknown[] {
    this.#buffer = concat(this.#buffer, chunk);
    const messages: unknown[] = [];
    while (true) {
      const headerEnd = indexOf(this.#buffer, HEADER_END);
      if (headerEnd === -1) return messages;
      const length = contentLength(decoder.decode(this.#buffer.subarray(0, headerEnd)));
      const start = headerEnd + HEADER_END.length;
      if (this.#buffer.length < start + length) return messages;
      messages.push(JSON.parse(decoder.decode(this.#buffer.subarray(start, start + length))));
      this.#buffer = this.#buffer.slice(start + length);
    }
  }
}

function contentLength(header: string): number {
  const match = /^content-length:\s*(\d+)\s*$/im.exec(header);
  if (!match) {
    throw new Error(`language server sent a header without Content-Length: ${JSON.stringify(header)}`);
  }
  return Number(match[1]);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
