/**
 * Finding the processes a test started by a marker in their command lines (`--marker <uuid>`
 * passed to fixture servers), to count what is left behind once toolrt has exited.
 */
import { randomUUID } from "node:crypto";

export interface ProcessRow {
  pid: number;
  ppid: number;
  args: string;
}

export function newMarker(): string {
  return `toolrt-test-${randomUUID()}`;
}

/** Every running process whose command line holds `marker` (zombies excluded: they hold nothing). */
export function processesMarked(marker: string): ProcessRow[] {
  const ps = Bun.spawnSync(["ps", "-eo", "pid=,ppid=,stat=,args="]);
  return ps.stdout.toString().split("\n").flatMap((line) => {
    const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (!match || !match[4]!.includes(marker) || match[3]!.startsWith("Z")) return [];
    return [{ pid: Number(match[1]), ppid: Number(match[2]), args: match[4]! }];
  });
}

/** Whether a process is still running (not yet reaped counts as gone only when it is a zombie). */
export function isRunning(pid: number): boolean {
  const ps = Bun.spawnSync(["ps", "-o", "stat=", "-p", String(pid)]);
  const stat = ps.stdout.toString().trim();
  return stat !== "" && !stat.startsWith("Z");
}

/** Cleanup after a failed test: SIGKILL each left-over process by its pid. */
export function killLeftovers(rows: readonly ProcessRow[]): void {
  for (const row of rows) {
    try {
      process.kill(row.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** Reads newline-delimited JSON-RPC from a child's stdout. */
export class JsonLines {
  readonly #reader: { read(): Promise<{ value?: Uint8Array; done: boolean }>; releaseLock(): void };
  readonly #decoder = new TextDecoder();
  #buffer = "";

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  /** The next message for which `accept` holds (others are skipped). */
  async next(accept: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    for (;;) {
      const newline = this.#buffer.indexOf("\n");
      if (newline !== -1) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        if (line.trim() === "") continue;
        const message = JSON.parse(line) as Record<string, unknown>;
        if (accept(message)) return message;
        continue;
      }
      const { value, done } = await this.#reader.read();
      if (done) throw new Error(`the stream ended before the expected message (left: ${this.#buffer})`);
      this.#buffer += this.#decoder.decode(value, { stream: true });
    }
  }

  release(): void {
    this.#reader.releaseLock();
  }
}

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
};

export const jsonLine = (message: unknown) => `${JSON.stringify(message)}\n`;
