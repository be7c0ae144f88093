/**
 * Named sessions of `toolrt run --session NAME`: the session state tools keep between calls (the
 * files read, with the mtime and size they had, and the todo list) saved in the state dir, so a
 * Read in one invocation lets an Edit in the next one through the read-before-write guard.
 *
 * Invocations of one session may run at once: each saves under a lock, merging what it changed
 * into what is on disk then, and replaces the file by rename, so none loses another's reads.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { SessionState, TodoItem } from "../tool/types.ts";
import { ConfigError, UsageError } from "./errors.ts";

type FileState = SessionState["readFiles"] extends Map<string, infer V> ? V : never;

interface SessionFile {
  readFiles: Record<string, FileState>;
  todos: TodoItem[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A session name is one file name: letters, digits, `.`, `_` and `-`, at most 64, no path. */
function checkSessionName(name: string): string {
  if (NAME.test(name)) return name;
  throw new UsageError(
    `--session ${JSON.stringify(name)} is not a valid session name: use 1-64 letters, digits, '.', '_' ` +
      "or '-', starting with a letter or digit (no '/' or other path characters), e.g. --session work",
  );
}

function sessionFile(stateDir: string, name: string): string {
  return join(stateDir, "sessions", `${checkSessionName(name)}.json`);
}

export interface NamedSession {
  readonly name: string;
  /** The state the session's tool context starts from; tools update it as they run. */
  readonly state: SessionState;
  /** Saves what this invocation changed into the session file as it is now, under its lock. */
  save(): void;
}

/** Opens a named session: its saved state, or an empty one when it has not been used yet. */
export function openNamedSession(stateDir: string, name: string): NamedSession {
  const file = sessionFile(stateDir, name);
  const loaded = readSessionFile(file);
  const state: SessionState = {
    readFiles: new Map(Object.entries(loaded.readFiles)),
    todos: structuredClone(loaded.todos),
    name,
  };
  return { name, state, save: () => save(file, loaded, state) };
}

function save(file: string, loaded: SessionFile, state: SessionState): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  withLock(`${file}.lock`, () => {
    const current = readSessionFile(file);
    const readFiles = { ...current.readFiles };
    for (const [path, seen] of state.readFiles) {
      const was = loaded.readFiles[path];
      if (!was || was.mtimeMs !== seen.mtimeMs || was.size !== seen.size) readFiles[path] = seen;
    }
    const todosChanged = JSON.stringify(state.todos) !== JSON.stringify(loaded.todos);
    const merged: SessionFile = { readFiles, todos: todosChanged ? state.todos : current.todos };
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(merged, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  });
}

function readSessionFile(file: string): SessionFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { readFiles: {}, todos: [] };
    throw error;
  }
  try {
    const data = JSON.parse(text) as Partial<SessionFile>;
    if (typeof data !== "object" || data === null) throw new Error("not a JSON object");
    return { readFiles: data.readFiles ?? {}, todos: data.todos ?? [] };
  } catch (error) {
    throw new ConfigError(
      `${file}: the session file is broken (${
        (error as Error).message
      }); delete it to start the session afresh`,
    );
  }
}

/** A lock older than this belongs to an invocation that died holding it. */
const STALE_LOCK_MS = 10_000;
const LOCK_WAIT_MS = 15_000;

/** Runs `body` holding an exclusive lock file (created with O_EXCL; removed after). */
function withLock(lock: string, body: () => void): void {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx", 0o600));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (isStale(lock)) rmSync(lock, { force: true });
      else if (Date.now() > deadline) {
        throw new Error(`${lock} is held by another toolrt run; delete it if no toolrt run is running`);
      } else sleep(20);
    }
  }
  try {
    body();
  } finally {
    rmSync(lock, { force: true });
  }
}

function isStale(lock: string): boolean {
  try {
    return Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS;
  } catch {
    return false;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
