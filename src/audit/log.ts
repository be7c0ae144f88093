/**
 * The audit log: append-only JSON lines in the state dir, one per decision or call, flushed per line.
 * Tamper-evident: every line carries the hash of the line before it and its own hash over its
 * content, so a removed, reordered or edited line breaks the chain (`verifyAuditLog`). Removing lines
 * from the end is only visible against an anchor kept elsewhere (the last hash `toolrt audit` prints).
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmdirSync,
  statSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { redact } from "./redact.ts";

export const GENESIS_HASH = "0".repeat(64);
const MAX_INPUT_CHARS = 4_000;

export interface AuditEvent {
  kind: "decision" | "call" | "hook" | "notice";
  tool?: string;
  toolUseId?: string;
  /** sha256 of the input as given (before redaction), so equal inputs can be matched without storing them. */
  inputDigest?: string;
  /** The input with secrets redacted and long values cut. */
  input?: unknown;
  decision?: "allow" | "ask" | "deny";
  reason?: string;
  /** The deciding rule as written, its id and its file. */
  rule?: string;
  ruleId?: string;
  file?: string;
  /**
   * What decided: a policy source (managed, user, project, local, flag, cli, session, claude,
   * default), `security-check`, `sandbox` (containment allowed it), `hook` (a PreToolUse hook),
   * `person`, or `toolrt` (its built-in
   * logic: modes, read-only calls, protected paths, the tool's own answer).
   */
  source?: string;
  /** An ask only a person may answer (ask rule, security check, protected path). */
  hardAsk?: boolean;
  /** Ids of the Bash security checks that made the decision. */
  checks?: number[];
  /** The permission mode of the call. */
  mode?: string;
  /** Whether the call runs in the sandbox, where that is known at decision time. */
  sandboxed?: boolean;
  /** sha256 over every policy source the decision was made under (`policyDigestOf`). */
  policyDigest?: string;
  invokedBy?: string;
  outcome?: "ok" | "error" | "denied" | "interrupted";
  durationMs?: number;
  sessionId?: string;
  cwd?: string;
  detail?: string;
  /** For a failed call: the error's class (an errno code or an error name), never its message. */
  errorClass?: string;
  /** For a call that returned: its result's size in characters, and whether it was saved whole to the state dir. */
  outputChars?: number;
  persisted?: boolean;
}

export interface AuditRecord extends AuditEvent {
  seq: number;
  ts: string;
  prev: string;
  hash: string;
}

function auditLogPath(stateDir: string): string {
  return join(stateDir, "audit.jsonl");
}

export function digestInput(input: unknown): string {
  return new Bun.CryptoHasher("sha256").update(JSON.stringify(input) ?? "").digest("hex");
}

/** The hash of a record: sha256 over the previous hash and the record without its own hash. */
export function recordHash(record: Omit<AuditRecord, "hash">): string {
  return new Bun.CryptoHasher("sha256").update(record.prev).update(JSON.stringify(record)).digest("hex");
}

/** Makes an event safe to store: redacted and bounded input. */
export function auditableInput(input: unknown): unknown {
  const redacted = redact(input);
  const text = JSON.stringify(redacted) ?? "";
  return text.length <= MAX_INPUT_CHARS ? redacted : { truncated: `${text.slice(0, MAX_INPUT_CHARS)}...` };
}

export class AuditLog {
  /** The last record this instance wrote and the file size after it: no re-read while nobody else wrote. */
  #last: { record: AuditRecord; size: number } | undefined;

  constructor(readonly path: string) {}

  static inStateDir(stateDir: string): AuditLog {
    return new AuditLog(auditLogPath(stateDir));
  }

  /** Appends one event; concurrent toolrt processes (hooks) are serialised by a lock directory. */
  append(event: AuditEvent): AuditRecord {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    return withLock(`${this.path}.lock`, () => {
      const fd = openSync(this.path, "a", 0o600);
      try {
        const size = fstatSync(fd).size;
        const last = this.#last?.size === size ? this.#last.record : readLastRecord(this.path);
        const record = nextRecord(last, event);
        const line = `${JSON.stringify(record)}\n`;
        writeSync(fd, line);
        this.#last = { record, size: size + Buffer.byteLength(line) };
        return record;
      } finally {
        closeSync(fd);
      }
    });
  }

  read(): AuditRecord[] {
    if (!existsSync(this.path)) return [];
    return readFileSync(this.path, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
  }
}

function nextRecord(last: AuditRecord | undefined, event: AuditEvent): AuditRecord {
  const base = {
    seq: last ? last.seq + 1 : 1,
    ts: new Date().toISOString(),
    prev: last ? last.hash : GENESIS_HASH,
    ...event,
  };
  return { ...base, hash: recordHash(base) };
}

/** Reads the last line of the log without reading the whole file. */
function readLastRecord(path: string): AuditRecord | undefined {
  if (!existsSync(path)) return undefined;
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    let chunk = 64 * 1024;
    while (true) {
      const start = Math.max(0, size - chunk);
      const buffer = Buffer.alloc(size - start);
      readSync(fd, buffer, 0, buffer.length, start);
      const lines = buffer.toString("utf8").split("\n").filter(Boolean);
      if (lines.length >= 2 || start === 0) {
        const last = lines.at(-1);
        return last ? JSON.parse(last) : undefined;
      }
      chunk *= 4;
    }
  } finally {
    closeSync(fd);
  }
}

const STALE_LOCK_MS = 10_000;

function withLock<T>(lockDir: string, fn: () => T): T {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0;; attempt++) {
    try {
      mkdirSync(lockDir);
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
      try {
        if (Date.now() - statSync(lockDir).mtimeMs > STALE_LOCK_MS) rmdirSync(lockDir);
      } catch { /* released meanwhile */ }
      if (attempt > 2_000) throw new Error(`audit log is locked by another process: ${lockDir}`);
      Atomics.wait(sleeper, 0, 0, 5);
    }
  }
  try {
    return fn();
  } finally {
    rmdirSync(lockDir);
  }
}
