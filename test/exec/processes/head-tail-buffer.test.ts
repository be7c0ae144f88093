import { describe, expect, test } from "bun:test";
import { HeadTailBuffer } from "../../../src/exec/processes/head-tail-buffer.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("HeadTailBuffer", () => {
  test("output that fits is kept whole, however it was chunked", () => {
    const buffer = new HeadTailBuffer(4, 4);
    for (const part of ["ab", "cde", "fg"]) buffer.push(bytes(part));
    expect(buffer.excerpt()).toEqual({ head: "abcdefg", tail: "", omittedBytes: 0 });
    expect(buffer.totalBytes).toBe(7);
  });

  test("longer output keeps its head and tail and counts what lies between", () => {
    const buffer = new HeadTailBuffer(3, 3);
    buffer.push(bytes("0123456789"));
    expect(buffer.excerpt()).toEqual({ head: "012", tail: "789", omittedBytes: 4 });
  });

  test("matches a naive head/tail of the whole stream for random chunkings", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const headBytes = Math.floor(random() * 20);
      const tailBytes = 1 + Math.floor(random() * 20);
      const buffer = new HeadTailBuffer(headBytes, tailBytes);
      let whole = "";
      const chunks = Math.floor(random() * 12);
      for (let i = 0; i < chunks; i++) {
        const chunk = String.fromCharCode(97 + (i % 26)).repeat(Math.floor(random() * 30));
        whole += chunk;
        buffer.push(bytes(chunk));
      }
      const excerpt = buffer.excerpt();
      const label = `round ${round}: head ${headBytes}, tail ${tailBytes}, ${whole.length} bytes`;
      if (whole.length <= headBytes + tailBytes) {
        expect(excerpt.head + excerpt.tail, label).toBe(whole);
        expect(excerpt.omittedBytes, label).toBe(0);
      } else {
        expect(excerpt.head, label).toBe(whole.slice(0, headBytes));
        expect(excerpt.tail, label).toBe(whole.slice(whole.length - tailBytes));
        expect(excerpt.omittedBytes, label).toBe(whole.length - headBytes - tailBytes);
      }
    }
  });

  test("cuts never split a UTF-8 character; the partial bytes count as omitted", () => {
    const buffer = new HeadTailBuffer(4, 4);
    buffer.push(bytes("aéé" + "-".repeat(10) + "éé")); // é is two bytes
    const excerpt = buffer.excerpt();
    expect(excerpt.head).toBe("aé");
    expect(excerpt.tail).toBe("éé");
    expect(excerpt.head + excerpt.tail).not.toContain("\uFFFD");
    expect(excerpt.omittedBytes).toBe(bytes("é" + "-".repeat(10)).length);
  });
});
