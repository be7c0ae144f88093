/**
 * The processes a session keeps running beyond one tool call: Bash background tasks and exec
 * sessions. One registry per session; each task remembers how much of its output has been read.
 */
import { join } from "node:path";
import type { SessionState } from "../../tool/types.ts";
import type { Excerpt } from "./excerpt.ts";
import type { ManagedProcess } from "./managed-process.ts";

/** "bash": started by Bash (in the background, or moved there); "exec": an exec session that takes input. */
export type TaskKind = "bash" | "exec";

export interface ProcessTask {
  readonly id: string;
  readonly kind: TaskKind;
  readonly description?: string;
  readonly process: ManagedProcess;
  /** Bytes of the output log already handed to the model. */
  readCursor: number;
  /** Sentences for the model from the launch once the process has ended (files that run later it changed). */
  notices?: string[];
}

export interface OutputRead extends Excerpt {
  /** Whole bytes the read covered, omitted ones included. */
  bytes: number;
}

export class TaskRegistry {
  readonly #tasks = new Map<string, ProcessTask>();

  /** `afterRun`: the launch's, called once when the process ends (before any reader sees the end). */
  add(
    task: Omit<ProcessTask, "readCursor" | "notices"> & { readCursor?: number; afterRun?: () => string[] },
  ): ProcessTask {
    const { afterRun, ...rest } = task;
    const entry: ProcessTask = { ...rest, readCursor: task.readCursor ?? 0 };
    if (afterRun) void task.process.ended.then(() => void (entry.notices = afterRun()));
    this.#tasks.set(task.id, entry);
    return entry;
  }

  get(id: string): ProcessTask | undefined {
    return this.#tasks.get(id);
  }

  /** The task, or an error that names the known ids and where ids come from. */
  require(id: string): ProcessTask {
    const task = this.#tasks.get(id);
    if (task) return task;
    const known = [...this.#tasks.keys()];
    throw new Error(
      `No task or exec session with id '${id}' in this session. ` +
        (known.length ? `Known ids: ${known.join(", ")}. ` : "None has been started. ") +
        "Ids come from Bash with run_in_background (or a command moved to the background) and from ExecCommand.",
    );
  }

  list(): ProcessTask[] {
    return [...this.#tasks.values()];
  }

  /** Stops every running task (session end). */
  async stopAll(): Promise<void> {
    await Promise.all(this.list().map((task) => task.process.stop("shutdown")));
  }
}

/**
 * Output of a task not yet read (or all of it), as an excerpt of at most `maxBytes`, keeping a
 * quarter from the start and the rest from the end. Advances the task's read cursor.
 */
export function readTaskOutput(task: ProcessTask, options: { all: boolean; maxBytes: number }): OutputRead {
  const log = task.process.log;
  const from = options.all ? 0 : task.readCursor;
  const to = log.bytes;
  const headBytes = Math.floor(options.maxBytes / 4);
  const excerpt = log.excerpt(from, to, headBytes, options.maxBytes - headBytes);
  task.readCursor = to;
  return { ...excerpt, bytes: to - from };
}

const registries = new WeakMap<SessionState, TaskRegistry>();

/** The registry of a session, created on first use; it goes away with the session object. */
export function taskRegistryFor(session: SessionState): TaskRegistry {
  let registry = registries.get(session);
  if (!registry) registries.set(session, registry = new TaskRegistry());
  return registry;
}

/** Where a task's output log lives in the state dir. */
export function taskLogPath(stateDir: string, id: string): string {
  return join(stateDir, "tasks", `${id}.log`);
}

/** A short unique id: `bash-1a2b3c4d`, `exec-...`. */
export function newTaskId(kind: TaskKind): string {
  return `${kind}-${crypto.randomUUID().slice(0, 8)}`;
}
