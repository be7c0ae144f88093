/**
 * Placeholders for missing protected paths (`.zshrc`, `.vscode/` ...): a mount needs something to
 * sit on, so an empty file or directory is made on the host before the run and removed afterwards.
 *
 * Concurrent runs share them. Removing a placeholder on the host detaches the read-only mount that
 * another running sandbox has on it, so removal waits until no run holds a lease. Leases and the
 * list of placeholders live in a per-user registry in the temp dir, guarded by a `mkdir` lock.
 */
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isAlive } from "./alive.ts";
import type { Placeholder } from "./mount-plan.ts";

const LOCK_TIMEOUT_MS = 5_000;
const STALE_LOCK_MS = 10_000;

export class PlaceholderRegistry {
  readonly dir: string;
  private lease: string | null = null;

  constructor(dir = join(tmpdir(), `toolrt-sandbox-${process.getuid?.() ?? "user"}`)) {
    this.dir = dir;
    mkdirSync(join(dir, "leases"), { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid()) || (st.mode & 0o022) !== 0) {
      throw new Error(`sandbox registry ${dir} is not a private directory of this user; refusing to use it`);
    }
  }

  /** Registers this run; from now on no other run removes placeholders this run may rely on. */
  acquire(): void {
    this.locked(() => {
      this.lease = join(this.dir, "leases", `${process.pid}-${crypto.randomUUID()}`);
      writeFileSync(this.lease, String(process.pid));
    });
  }

  /** Creates the missing placeholders and records them for later removal. */
  create(placeholders: Placeholder[]): void {
    if (placeholders.length === 0) return;
    this.locked(() => {
      const recorded = this.recorded();
      for (const p of placeholders) {
        if (existsSync(p.path)) continue;
        if (p.kind === "dir") mkdirSync(p.path, { mode: 0o755 });
        else closeSync(openSync(p.path, "wx", 0o644));
        recorded.add(p.path);
      }
      this.record(recorded);
    });
  }

  /** Ends this run's lease; when it was the last live one, removes placeholders still empty. */
  release(): void {
    this.locked(() => {
      if (this.lease) rmSync(this.lease, { force: true });
      this.lease = null;
      if (this.liveLeases() > 0) return;
      const left = new Set<string>();
      // Children first: runs that overlapped can leave a placeholder directory holding placeholders.
      for (const path of [...this.recorded()].sort().reverse()) if (!removeIfEmpty(path)) left.add(path);
      this.record(left);
    });
  }

  private liveLeases(): number {
    let live = 0;
    for (const name of readdirSync(join(this.dir, "leases"))) {
      const pid = Number(name.split("-")[0]);
      if (isAlive(pid)) live++;
      else rmSync(join(this.dir, "leases", name), { force: true });
    }
    return live;
  }

  private recorded(): Set<string> {
    try {
      return new Set(JSON.parse(readFileSync(join(this.dir, "placeholders.json"), "utf8")) as string[]);
    } catch {
      return new Set();
    }
  }

  private record(paths: Set<string>): void {
    writeFileSync(join(this.dir, "placeholders.json"), JSON.stringify([...paths].sort()));
  }

  private locked<T>(fn: () => T): T {
    const lock = join(this.dir, "lock");
    const deadline = Date.now() + LOCK_TIMEOUT_MS;
    for (;;) {
      try {
        mkdirSync(lock);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        if (isStale(lock)) rmSync(lock, { recursive: true, force: true });
        else if (Date.now() > deadline) throw new Error(`sandbox registry lock ${lock} is held too long`);
        else Bun.sleepSync(2);
      }
    }
    try {
      writeFileSync(join(lock, "pid"), String(process.pid));
      return fn();
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

function isStale(lock: string): boolean {
  try {
    const pid = Number(readFileSync(join(lock, "pid"), "utf8"));
    return !isAlive(pid);
  } catch {
    try {
      return Date.now() - lstatSync(lock).mtimeMs > STALE_LOCK_MS;
    } catch {
      return false; // released meanwhile
    }
  }
}

/** Removes an empty placeholder; leaves anything with content (someone else's file now). */
function removeIfEmpty(path: string): boolean {
  try {
    const st = lstatSync(path);
    if (st.isDirectory()) {
      if (readdirSync(path).length > 0) return true; // keep it, and stop tracking it
      rmdirSync(path);
    } else if (st.isFile() && st.size === 0) unlinkSync(path);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}
