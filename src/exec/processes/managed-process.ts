/**
 * One running command: spawned in its own process group, its output written whole to an
 * `OutputLog` and kept in bounded `HeadTailBuffer`s, listeners told of every chunk, stoppable as a
 * group (SIGTERM, then SIGKILL after a grace period), with an optional deadline.
 */
import { existsSync } from "node:fs";
import { HeadTailBuffer } from "./head-tail-buffer.ts";
import type { WrappedLaunch } from "./launch.ts";
import { OutputLog } from "./output-log.ts";
import { signalGroup, trackGroup } from "./process-group.ts";
import { waitAtMost } from "./wait.ts";

export type StreamName = "stdout" | "stderr";

/** Why toolrt stopped a process, when it did. */
export type StopReason = "timeout" | "interrupt" | "stop" | "shutdown";

export interface ProcessEnd {
  /** Exit status; 128 + signal number when a signal ended it, as shells report it. */
  exitCode: number;
  signal: string | null;
  stopReason?: StopReason;
}

/** "none": stdin is /dev/null. "pipe": writable stdin. "tty": a pseudo-terminal, stderr merged into stdout. */
export type InputMode = "none" | "pipe" | "tty";

export interface StartOptions {
  launch: WrappedLaunch;
  logPath: string;
  input: InputMode;
  /** Per stream: bytes kept in memory from the start and from the end. */
  capture: { headBytes: number; tailBytes: number };
  /** Between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** After the command exits, how long to wait for leftovers (`cmd &`) still holding its output open. */
  drainMs?: number;
  /**
   * Told of every chunk from the first: output can arrive before `start()` has returned to its
   * caller, so a listener added later with `onOutput` may miss the beginning.
   */
  onOutput?: OutputListener;
}

export type OutputListener = (stream: StreamName, chunk: Uint8Array) => void;

const DEFAULT_KILL_GRACE_MS = 2_000;
const DEFAULT_DRAIN_MS = 200;

interface Spawned {
  pid: number;
  exited: Promise<number>;
  signalCode: () => string | null;
  /** Resolve when each output stream reaches its end. */
  streamsDone: Promise<unknown>;
  /** Stops reading output that is still open after the drain time. */
  detachOutput: () => void;
  write?: (text: string) => Promise<void>;
}

export class ManagedProcess {
  readonly pid: number;
  readonly startedAt = Date.now();
  readonly command: string;
  readonly log: OutputLog;
  readonly captured: Record<StreamName, HeadTailBuffer>;
  readonly ended: Promise<ProcessEnd>;
  #end: ProcessEnd | undefined;
  #stopReason: StopReason | undefined;
  #deadline: ReturnType<typeof setTimeout> | undefined;
  readonly #listeners = new Set<OutputListener>();
  readonly #killGraceMs: number;
  readonly #spawned: Spawned;

  /** Spawns the launch; throws a clear error when it cannot start (missing directory or program). */
  static start(command: string, options: StartOptions): ManagedProcess {
    return new ManagedProcess(command, options);
  }

  private constructor(command: string, options: StartOptions) {
    this.command = command;
    this.#killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    this.log = new OutputLog(options.logPath);
    const { headBytes, tailBytes } = options.capture;
    this.captured = {
      stdout: new HeadTailBuffer(headBytes, tailBytes),
      stderr: new HeadTailBuffer(headBytes, tailBytes),
    };
    if (options.onOutput) this.#listeners.add(options.onOutput);
    try {
      this.#spawned = options.input === "tty"
        ? spawnTty(options.launch, this.#accept)
        : spawnPipes(options.launch, options.input, this.#accept);
    } catch (error) {
      this.log.discard();
      void options.launch.cleanup?.();
      const { argv, cwd } = options.launch;
      const reason = existsSync(cwd) ? (error as Error).message : "the working directory does not exist";
      throw new Error(
        `Could not start '${argv[0]}' in ${cwd}: ${reason}. ` +
          "Check the working directory and that the program is installed.",
      );
    }
    this.pid = this.#spawned.pid;
    this.ended = this.#waitForEnd(options);
  }

  get running(): boolean {
    return this.#end === undefined;
  }

  /** How the process ended; undefined while it runs. */
  get end(): ProcessEnd | undefined {
    return this.#end;
  }

  get acceptsInput(): boolean {
    return this.#spawned.write !== undefined;
  }

  /** Adds a listener for output from now on (see `StartOptions.onOutput` for the first chunk). */
  onOutput(listener: OutputListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Sends text to the program's stdin (or terminal). */
  async write(text: string): Promise<void> {
    if (!this.#spawned.write) {
      throw new Error(`'${this.command}' was started without input; it cannot be written to.`);
    }
    if (this.#end) throw new Error(`'${this.command}' has exited (exit code ${this.#end.exitCode}).`);
    await this.#spawned.write(text);
  }

  /** Stops the whole process group; resolves once the command has ended. The first reason sticks. */
  stop(reason: StopReason): Promise<ProcessEnd> {
    if (!this.#end && this.#stopReason === undefined) {
      this.#stopReason = reason;
      signalGroup(this.pid, "SIGTERM");
      // Not cleared when the leader exits: members that ignore SIGTERM must still go.
      setTimeout(() => signalGroup(this.pid, "SIGKILL"), this.#killGraceMs).unref();
    }
    return this.ended;
  }

  /** Stops the process with reason "timeout" once `ms` have passed from now. */
  setDeadline(ms: number): void {
    clearTimeout(this.#deadline);
    this.#deadline = setTimeout(() => void this.stop("timeout"), ms);
  }

  readonly #accept = (stream: StreamName, chunk: Uint8Array): void => {
    this.log.append(chunk);
    this.captured[stream].push(chunk);
    for (const listener of this.#listeners) listener(stream, chunk);
  };

  async #waitForEnd(options: StartOptions): Promise<ProcessEnd> {
    const untrack = trackGroup(this.#spawned.pid);
    const exitCode = await this.#spawned.exited;
    await waitAtMost(this.#spawned.streamsDone, options.drainMs ?? DEFAULT_DRAIN_MS);
    this.#spawned.detachOutput();
    clearTimeout(this.#deadline);
    untrack();
    this.log.close();
    try {
      await options.launch.cleanup?.();
    } catch {
      // The command's result matters more than a failed cleanup of its wrapper.
    }
    this.#end = { exitCode, signal: this.#spawned.signalCode(), stopReason: this.#stopReason };
    this.#listeners.clear();
    return this.#end;
  }
}

function spawnPipes(launch: WrappedLaunch, input: "none" | "pipe", accept: OutputListener): Spawned {
  const subprocess = Bun.spawn(launch.argv, {
    cwd: launch.cwd,
    env: launch.env,
    detached: true,
    stdio: [input === "pipe" ? "pipe" : "ignore", "pipe", "pipe", ...(launch.extraStdio ?? [])],
  });
  launch.attach?.(subprocess);
  const readers = [subprocess.stdout.getReader(), subprocess.stderr.getReader()] as const;
  const stdin = input === "pipe" ? subprocess.stdin : undefined;
  return {
    pid: subprocess.pid,
    exited: subprocess.exited,
    signalCode: () => signalName(subprocess.signalCode),
    streamsDone: Promise.all([pump(readers[0], "stdout", accept), pump(readers[1], "stderr", accept)]),
    detachOutput: () => readers.forEach((reader) => void reader.cancel().catch(() => {})),
    write: stdin
      ? async (text) => {
        stdin.write(text);
        await stdin.flush();
      }
      : undefined,
  };
}

function spawnTty(launch: WrappedLaunch, accept: OutputListener): Spawned {
  let closed!: () => void;
  const streamsDone = new Promise<void>((resolve) => (closed = resolve));
  // The terminal takes descriptors 0-2; the extras still reach the child from 3 on (the sandbox's
  // seccomp program and network channel ride along, so a terminal session is sandboxed the same way).
  const subprocess = Bun.spawn(launch.argv, {
    cwd: launch.cwd,
    env: launch.env,
    terminal: { data: (_terminal, data) => accept("stdout", data), exit: () => closed() },
    stdio: ["ignore", "ignore", "ignore", ...(launch.extraStdio ?? [])],
  });
  launch.attach?.(subprocess);
  const terminal = subprocess.terminal!;
  return {
    pid: subprocess.pid,
    exited: subprocess.exited,
    signalCode: () => signalName(subprocess.signalCode),
    streamsDone,
    detachOutput: () => terminal.close(),
    write: async (text) => void terminal.write(text),
  };
}

async function pump(
  reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> },
  stream: StreamName,
  accept: OutputListener,
): Promise<void> {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || !value) return;
      accept(stream, value);
    }
  } catch {
    // Cancelled after the drain time: whatever arrived is kept.
  }
}

function signalName(signal: string | number | null): string | null {
  return signal === null ? null : String(signal);
}
