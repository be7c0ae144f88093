/**
 * The stdio client transport: an MCP server as a child process speaking JSON-RPC lines on its
 * stdin and stdout. Unlike the SDK's, it starts the server as the leader of its own process group
 * and stops the whole group, so a server launched through a wrapper (`npx`, `sh -c`, `uvx`) leaves
 * no grandchild behind; and every group is tracked, so toolrt exiting by any path (a crash
 * included) kills what is still running.
 *
 * Stopping follows the MCP lifecycle for stdio: close the server's input, give it time to exit,
 * then SIGTERM the group, then SIGKILL it.
 */
import type { Subprocess } from "bun";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage, McpError } from "@modelcontextprotocol/sdk/types.js";
import { isGroupAlive, signalGroup, trackGroup } from "../exec/processes/process-group.ts";
import { waitAtMost } from "../exec/processes/wait.ts";

const STDERR_TAIL_CHARS = 2_000;
/** How long a server may take to exit once its input is closed, before SIGTERM. */
const INPUT_CLOSED_GRACE_MS = 1_000;
/** How long a server may take to exit after SIGTERM, before SIGKILL. */
const TERM_GRACE_MS = 2_000;
/** How long a failed write waits to learn the server's exit status for its message. */
const EXIT_NOTICE_MS = 500;

export interface StdioServerLaunch {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
}

type PipedProcess = Subprocess<"pipe", "pipe", "pipe">;

export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #launch: StdioServerLaunch;
  readonly #buffer = new ReadBuffer();
  #process: PipedProcess | undefined;
  #untrack: (() => void) | undefined;
  #stderrTail = "";
  #closed = false;

  constructor(launch: StdioServerLaunch) {
    this.#launch = launch;
  }

  /** The process group (the server's pid) while it runs. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /** The last lines the server wrote to stderr: often the reason it failed. */
  stderrTail(): string {
    return this.#stderrTail.trim();
  }

  start(): Promise<void> {
    if (this.#process) throw new Error("the stdio transport is already started");
    const { command, args, env, cwd } = this.#launch;
    let spawned: PipedProcess;
    try {
      spawned = Bun.spawn([command, ...args], {
        cwd,
        env,
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
        // Its own process group: stopping the server stops whatever it started.
        detached: true,
      });
    } catch (error) {
      return Promise.reject(
        new Error(`cannot start ${command}: ${(error as Error).message}`, { cause: error }),
      );
    }
    this.#process = spawned;
    this.#untrack = trackGroup(spawned.pid);
    void this.#readMessages(spawned.stdout);
    void this.#readStderr(spawned.stderr);
    void spawned.exited.then(() => this.#ended());
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const process = this.#process;
    if (!process || process.exitCode !== null || process.signalCode !== null) {
      throw new Error("Not connected");
    }
    try {
      process.stdin.write(serializeMessage(message));
      await process.stdin.flush();
    } catch (error) {
      // A broken pipe means the server is exiting: say so, with its exit status once known.
      await waitAtMost(process.exited, EXIT_NOTICE_MS);
      const ended = process.exitCode !== null ? ` (exit code ${process.exitCode})` : "";
      throw new McpError(
        ErrorCode.ConnectionClosed,
        `Connection closed: the server stopped reading its input${ended}`,
        { cause: (error as Error).message },
      );
    }
  }

  /** Stops the server and everything in its process group; resolves once they are gone. */
  async close(): Promise<void> {
    const process = this.#process;
    if (!process) {
      this.#ended();
      return;
    }
    try {
      process.stdin.end();
    } catch {
      // Its input is already closed.
    }
    await waitAtMost(process.exited, INPUT_CLOSED_GRACE_MS);
    // The leader may have exited and left children in its group: they go the same way.
    if (isGroupAlive(process.pid)) {
      signalGroup(process.pid, "SIGTERM");
      await waitUntilGone(process, TERM_GRACE_MS);
    }
    if (isGroupAlive(process.pid)) {
      signalGroup(process.pid, "SIGKILL");
      await waitUntilGone(process, TERM_GRACE_MS);
    }
    this.#untrack?.();
    this.#ended();
  }

  async #readMessages(stdout: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stdout) {
        this.#buffer.append(Buffer.from(chunk));
        this.#drainBuffer();
      }
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  #drainBuffer(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#buffer.readMessage();
      } catch (error) {
        // A line that is not JSON-RPC: reported, and the next line is read.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  async #readStderr(stderr: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of stderr) {
        this.#stderrTail = (this.#stderrTail + decoder.decode(chunk, { stream: true })).slice(
          -STDERR_TAIL_CHARS,
        );
      }
    } catch {
      // The tail is a courtesy; losing it loses nothing else.
    }
  }

  /** Reports the end once, whoever noticed it first: the server exiting or `close()`. */
  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer.clear();
    this.onclose?.();
  }
}

/** Waits for the leader to exit and its group to empty, at most `ms`. */
async function waitUntilGone(process: PipedProcess, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  await waitAtMost(process.exited, ms);
  while (isGroupAlive(process.pid) && Date.now() < deadline) await Bun.sleep(25);
}
