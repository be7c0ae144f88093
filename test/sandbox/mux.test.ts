import { describe, expect, test } from "bun:test";
import { chunks, encodeFrame, FrameDecoder, FrameType, MAX_PAYLOAD } from "../../src/sandbox/mux.ts";

describe("network channel frames", () => {
  test("round-trip, split at every byte boundary", () => {
    const bytes = new Uint8Array([
      ...encodeFrame(FrameType.open, 7, new Uint8Array([1])),
      ...encodeFrame(FrameType.data, 7, new TextEncoder().encode("hello")),
      ...encodeFrame(FrameType.close, 7),
    ]);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const decoder = new FrameDecoder();
      const frames = [...decoder.push(bytes.slice(0, cut)), ...decoder.push(bytes.slice(cut))];
      expect(frames.map((f) => [f.type, f.stream, f.payload.length])).toEqual([[1, 7, 1], [2, 7, 5], [
        3,
        7,
        0,
      ]]);
    }
  });
  test("a malformed frame is an error, not a hang", () => {
    expect(() => new FrameDecoder().push(new Uint8Array([9, 0, 0, 0, 1, 0, 0, 0, 0]))).toThrow("malformed");
  });
  test("large data is cut into frame-sized payloads", () => {
    expect([...chunks(new Uint8Array(MAX_PAYLOAD * 2 + 1))].map((c) => c.length)).toEqual([
      MAX_PAYLOAD,
      MAX_PAYLOAD,
      1,
    ]);
    expect(() => encodeFrame(FrameType.data, 1, new Uint8Array(MAX_PAYLOAD + 1))).toThrow(RangeError);
  });
});
