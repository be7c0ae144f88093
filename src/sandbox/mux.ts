/**
 * Frames that carry many TCP streams over the one descriptor shared by the host and the in-sandbox
 * bridge (a socketpair end inherited through bwrap: the sandbox cannot create unix sockets itself).
 * Frame: type (u8), stream id (u32 BE), payload length (u32 BE), payload. Pure.
 */

export const FrameType = { open: 1, data: 2, close: 3 } as const;
export type FrameTypeValue = (typeof FrameType)[keyof typeof FrameType];

/** Which host proxy an opened stream goes to (the OPEN frame's one-byte payload). */
export const StreamKind = { http: 0, socks: 1 } as const;

export interface Frame {
  type: FrameTypeValue;
  stream: number;
  payload: Uint8Array;
}

const HEADER = 9;
export const MAX_PAYLOAD = 64 * 1024;

export function encodeFrame(
  type: FrameTypeValue,
  stream: number,
  payload: Uint8Array = new Uint8Array(),
): Uint8Array {
  if (payload.length > MAX_PAYLOAD) throw new RangeError(`frame payload over ${MAX_PAYLOAD} bytes`);
  const out = new Uint8Array(HEADER + payload.length);
  const view = new DataView(out.buffer);
  view.setUint8(0, type);
  view.setUint32(1, stream);
  view.setUint32(5, payload.length);
  out.set(payload, HEADER);
  return out;
}

/** Splits a byte stream into frames; holds partial frames until the rest arrives. */
export class FrameDecoder {
  private buffer = new Uint8Array();

  push(chunk: Uint8Array): Frame[] {
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer);
    joined.set(chunk, this.buffer.length);
    const frames: Frame[] = [];
    let at = 0;
    while (joined.length - at >= HEADER) {
      const view = new DataView(joined.buffer, at);
      const type = view.getUint8(0);
      const length = view.getUint32(5);
      if (type < FrameType.open || type > FrameType.close || length > MAX_PAYLOAD) {
        throw new Error("network channel: malformed frame");
      }
      if (joined.length - at < HEADER + length) break;
      frames.push({
        type: type as FrameTypeValue,
        stream: view.getUint32(1),
        payload: joined.slice(at + HEADER, at + HEADER + length),
      });
      at += HEADER + length;
    }
    this.buffer = joined.slice(at);
    return frames;
  }
}

/** Splits data into frame-sized payloads. */
export function* chunks(data: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < data.length; at += MAX_PAYLOAD) yield data.subarray(at, at + MAX_PAYLOAD);
}
