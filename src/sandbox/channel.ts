/**
 * Both ends of the network channel: frames in and out of one inherited descriptor, and the TCP
 * sockets they stand for. The host end opens a connection to the proxy for each OPEN frame; the
 * sandbox end sends OPEN for each connection its loopback listeners accept.
 */
import { write } from "node:fs";
import type { Socket } from "node:net";
import { chunks, encodeFrame, type Frame, FrameDecoder, FrameType, type FrameTypeValue } from "./mux.ts";

export class Channel {
  private readonly sockets = new Map<number, Socket>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly fd: number,
    private readonly onOpen?: (stream: number, kind: number) => Socket,
  ) {}

  /** Reads frames until the other side goes away; then every stream is closed. */
  async run(): Promise<void> {
    const decoder = new FrameDecoder();
    try {
      for await (const chunk of Bun.file(this.fd).stream()) {
        for (const frame of decoder.push(chunk)) this.handle(frame);
      }
    } catch {
      // the peer died or sent garbage: treat as the end of the channel
    }
    this.closed = true;
    for (const socket of this.sockets.values()) socket.destroy();
    this.sockets.clear();
  }

  /** Carries `socket` as stream `stream`: its bytes go out as DATA frames, its end as CLOSE. */
  bind(stream: number, socket: Socket): void {
    this.sockets.set(stream, socket);
    socket.on("data", (data: Buffer) => {
      for (const part of chunks(data)) this.send(FrameType.data, stream, part);
    });
    const end = () => {
      if (this.sockets.delete(stream)) this.send(FrameType.close, stream);
    };
    socket.on("end", end);
    socket.on("close", end);
    socket.on("error", () => socket.destroy());
  }

  send(type: FrameTypeValue, stream: number, payload?: Uint8Array): void {
    if (this.closed) return;
    const frame = encodeFrame(type, stream, payload);
    // fs.write calls on one descriptor may complete out of order: chain them.
    this.queue = this.queue.then(() => writeAll(this.fd, frame)).catch(() => {
      this.closed = true;
    });
  }

  private handle(frame: Frame): void {
    if (frame.type === FrameType.open && this.onOpen) {
      this.bind(frame.stream, this.onOpen(frame.stream, frame.payload[0] ?? 0));
      return;
    }
    const socket = this.sockets.get(frame.stream);
    if (!socket) return;
    if (frame.type === FrameType.data) socket.write(frame.payload);
    if (frame.type === FrameType.close) {
      this.sockets.delete(frame.stream);
      socket.end();
    }
  }
}

/** Writes every byte; a full non-blocking socket (EAGAIN) is retried after a short pause. */
async function writeAll(fd: number, bytes: Uint8Array): Promise<void> {
  let at = 0;
  while (at < bytes.length) {
    at += await new Promise<number>((resolve, reject) =>
      write(fd, bytes, at, bytes.length - at, null, (error, written) => {
        if (error?.code === "EAGAIN") setTimeout(() => resolve(0), 2);
        else if (error) reject(error);
        else resolve(written);
      })
    );
  }
}
