/**
 * A resident change watcher for the trees a sandbox scans (writable roots, read-denied directories):
 * with it, a run looks only at the directories that changed since the last one, instead of one
 * lstat per directory (`tree-index.ts`). One inotify watch per directory (entries added, removed,
 * renamed, its own attributes) and per known multi-linked file (its link count), added before the
 * directory or file is read, so whatever changes after the read is an event.
 *
 * Before each scan, the barrier: a write to a private file this watcher also watches (kept open,
 * written in place), then the queue read until it is empty. The kernel queues an event during the system call that makes the
 * change, so every change completed before the scan started is read by then; the barrier's own
 * event must be among them, or the watcher is not working and the scan revalidates in full.
 *
 * Never fails open: a queue overflow, a watch that could not be added (the user's watch limit), a
 * lost barrier, or no inotify at all → the tree is revalidated in full (today's way: one lstat per
 * directory), and the scan says why (`Revalidation`, shown by `toolrt sandbox --explain`).
 *
 * Not seen (as without it): a file of the trees that had one link and gets a second one from outside
 * (its directory does not change; only a watch on every file would see it).
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import { leftoverOwnerGone, pidNamespace } from "./alive.ts";
import { dirname, join } from "node:path";
import {
  EACCES,
  ENOENT,
  ENOSPC,
  ENOTDIR,
  IN_ATTRIB,
  IN_CREATE,
  IN_DELETE,
  IN_DELETE_SELF,
  IN_DONT_FOLLOW,
  IN_IGNORED,
  IN_MODIFY,
  IN_MOVE_SELF,
  IN_MOVED_FROM,
  IN_MOVED_TO,
  IN_ONLYDIR,
  IN_Q_OVERFLOW,
  IN_UNMOUNT,
  Inotify,
  type InotifyLike,
} from "./inotify.ts";
import {
  scanGitEntries,
  type ScanResult,
  scanWritableRoots,
  TreeIndexes,
  type TreeSource,
  withLinkMounts,
} from "./scan.ts";
import type { IndexedDir, TreeIndex } from "./tree-index.ts";
import { timingMark } from "./timing.ts";

/** How a scan's trees were revalidated. */
export interface Revalidation {
  /** `events`: only what the watcher saw change was looked at; `full`: one lstat per directory. */
  mode: "events" | "full";
  /** Why not by events (mode `full`). */
  reason?: string;
}

export interface WatchedScan {
  scan: ScanResult;
  revalidation: Revalidation;
  /**
   * The watcher's count of events so far, unique to this watcher (absent without a working one):
   * given back after the run, it tells whether anything at all changed in between.
   */
  generation?: string;
}

const DIR_EVENTS = IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF |
  IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW;
const FILE_EVENTS = IN_ATTRIB | IN_DONT_FOLLOW;
/** More events than this in one drain is treated as an overflow (a queue that never empties). */
const MAX_EVENTS_PER_DRAIN = 1_000_000;

/** What a watch descriptor stands for: the paths it was added at (a moved directory keeps its watch). */
interface Watched {
  paths: Set<string>;
  file: boolean;
}

export class TreeWatch implements TreeSource {
  private readonly indexes: TreeIndexes;
  private readonly inotify: InotifyLike | null = null;
  /** Set once for good: the watcher cannot be trusted any more (every scan revalidates in full). */
  private broken: string | null = null;
  private readonly watched = new Map<number, Watched>();
  /** Directories with an event since they were last looked at. */
  private readonly dirty = new Set<string>();
  /** Directories whose watch could not be added: looked at on every scan. */
  private readonly unwatched = new Set<string>();
  /** Trees not yet revalidated in full since the watcher started or lost events, with why. */
  private readonly needsFull = new Map<string, string>();
  private readonly known = new Set<string>();
  private readonly barrierFile: string;
  /** Kept open: one write in place per barrier (an open with O_TRUNC waits for ext4's flush of it). */
  private barrierFd = -1;
  private barrierWd = -1;
  /** The reason the current scan is not by events, if any. */
  private fullReason: string | null = null;
  private cache: { key: string; scan: ScanResult } | null = null;
  /** Events read so far; with `instance`, the generation a run compares before and after. */
  private events = 0;
  private readonly instance = crypto.randomUUID();
  private drainTimer: ReturnType<typeof setInterval> | null = null;

  /**
   * `sandboxDir`: the sandbox's state dir (indexes are read from and, after full passes, written to
   * its `index/`; the barrier file lives in its `watch/`). `drainEveryMs`: also read the queue on
   * a timer (unref'd), so bursts between scans overflow it less often. `inotify`: for tests.
   */
  constructor(sandboxDir: string, options: { drainEveryMs?: number; inotify?: () => InotifyLike } = {}) {
    this.indexes = new TreeIndexes(join(sandboxDir, "index"));
    const dir = join(sandboxDir, "watch");
    const name = `barrier-${pidNamespace()}-${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
    this.barrierFile = join(dir, name);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      sweepBarriers(dir);
      this.barrierFd = openSync(this.barrierFile, "wx", 0o600);
      this.inotify = options.inotify?.() ?? new Inotify();
      const wd = this.inotify.add(this.barrierFile, IN_MODIFY | IN_DONT_FOLLOW);
      if (typeof wd !== "number") throw new Error(`cannot watch its barrier file (errno ${wd.errno})`);
      this.barrierWd = wd;
    } catch (error) {
      this.broken = `no change watcher: ${(error as Error).message}`;
    }
    if (options.drainEveryMs && !this.broken) {
      this.drainTimer = setInterval(() => this.absorb(), options.drainEveryMs);
      this.drainTimer.unref?.();
    }
  }

  /** The scan of `roots` and `denyRead` as they are now, and how it was revalidated. */
  scan(roots: string[], denyRead: string[]): WatchedScan {
    this.begin();
    const key = JSON.stringify([roots, denyRead]);
    if (this.cache?.key === key && this.quiet([...roots, ...denyRead])) {
      timingMark("watch:unchanged");
      return { scan: this.cache.scan, revalidation: { mode: "events" }, generation: this.generation() };
    }
    const scan = withLinkMounts(scanWritableRoots(roots, denyRead, this), roots);
    this.cache = this.broken ? null : { key, scan };
    const revalidation = this.end();
    return { scan, revalidation, ...(this.broken ? {} : { generation: this.generation() }) };
  }

  /**
   * After a run: the `.git` entries of the roots as they are now. `unchanged` when `since` (the
   * before-run scan's generation) is still current: not one event in any watched tree since, so the
   * command created, removed or renamed nothing.
   */
  gitEntries(
    roots: string[],
    since?: string,
  ): Pick<ScanResult, "nestedGitDirs" | "gitPointers"> & { revalidation: Revalidation; unchanged?: boolean } {
    this.begin();
    if (this.cache && this.quiet(roots)) {
      const { nestedGitDirs, gitPointers } = this.cache.scan;
      const unchanged = !this.broken && since === this.generation();
      return {
        nestedGitDirs,
        gitPointers,
        revalidation: { mode: "events" },
        ...(unchanged ? { unchanged } : {}),
      };
    }
    // Something changed: the before-run scan's cache no longer holds.
    this.cache = null;
    const entries = scanGitEntries(roots, this);
    return { ...entries, revalidation: this.end() };
  }

  /** TreeSource: the index of `root`, looking only at what changed when the watcher can vouch for it. */
  refresh(root: string): TreeIndex | null {
    const full = this.broken ?? this.needsFull.get(root) ??
      (this.known.has(root) ? null : "the watcher has not read this tree yet");
    if (full && !this.fullReason) this.fullReason = full;
    // Link counts are always looked at again where not vouched for: a file's event dirties only its
    // directory, whose own change time does not move.
    const index = this.indexes.refresh(root, {
      save: full !== null,
      ...(this.broken ? {} : { watch: (path, kind) => this.watch(path, kind) }),
      ...(full
        ? {}
        : { trusted: (prior: IndexedDir) => !this.dirty.has(prior.p) && !this.unwatched.has(prior.p) }),
    });
    if (!this.broken) {
      this.known.add(root);
      this.needsFull.delete(root);
      for (const path of this.dirty) {
        if (path === root || path.startsWith(`${root}/`)) this.dirty.delete(path);
      }
    }
    return index;
  }

  /**
   * Whether nothing in `trees` needs a look: no event, no unwatched directory, no full pass due, no
   * doubt raised by this scan's barrier. Events outside them (another root's, a root's parent) do not
   * count.
   */
  private quiet(trees: string[]): boolean {
    if (this.fullReason || trees.some((t) => this.needsFull.has(t))) return false;
    const inside = (path: string) => trees.some((t) => path === t || path.startsWith(`${t}/`));
    for (const path of this.dirty) if (inside(path)) return false;
    for (const path of this.unwatched) if (inside(path)) return false;
    return true;
  }

  private generation(): string {
    return `${this.instance}:${this.events}`;
  }

  /** The reason scans revalidate in full for good, or null while the watcher works. */
  get failure(): string | null {
    return this.broken;
  }

  close(): void {
    if (this.drainTimer) clearInterval(this.drainTimer);
    this.inotify?.close();
    if (this.barrierFd >= 0) closeSync(this.barrierFd);
    this.barrierFd = -1;
    rmSync(this.barrierFile, { force: true });
  }

  /** The barrier: everything changed before now is read from the queue. */
  private begin(): void {
    this.fullReason = null;
    if (this.broken || !this.inotify) return;
    try {
      writeSync(this.barrierFd, "b", 0);
    } catch (error) {
      return this.lose(`the barrier file could not be written (${(error as Error).message})`, true);
    }
    const { barrier, overflowed } = this.absorb();
    // An overflow drops events, the barrier's too; it is handled (every tree in full), not a fault.
    if (!barrier && !overflowed) {
      this.lose("the barrier's event was not read back: the watcher is not working", true);
    }
    timingMark("watch:barrier");
  }

  private end(): Revalidation {
    const reason = this.fullReason;
    this.fullReason = null;
    return reason ? { mode: "full", reason } : { mode: "events" };
  }

  /** Reads the queue until it is empty, marking what changed; says whether the barrier's event was among it. */
  private absorb(): { barrier: boolean; overflowed: boolean } {
    let barrier = false;
    let overflowed = false;
    if (!this.inotify || this.broken) return { barrier, overflowed };
    let count = 0;
    for (;;) {
      if (this.broken) return { barrier, overflowed }; // lost for good meanwhile: nothing more to read
      let events;
      try {
        events = this.inotify.drain();
      } catch (error) {
        this.lose((error as Error).message, true);
        return { barrier, overflowed };
      }
      if (events.length === 0) return { barrier, overflowed };
      count += events.length;
      if (count > MAX_EVENTS_PER_DRAIN) this.lose("the inotify queue did not empty", false);
      for (const { wd, mask } of events) {
        if (mask & (IN_Q_OVERFLOW | IN_UNMOUNT)) {
          overflowed = true;
          this.lose(
            mask & IN_Q_OVERFLOW
              ? "the inotify queue overflowed (more changes than fs.inotify.max_queued_events between runs)"
              : "a file system under a watched tree was unmounted",
            false,
          );
          continue;
        }
        if (wd === this.barrierWd) {
          if (mask & IN_IGNORED) this.lose("the barrier file's watch was removed", true);
          barrier = true;
          continue;
        }
        this.events++; // any other event, even of a path no longer in a tree: a new generation
        const watched = this.watched.get(wd);
        if (!watched) continue;
        for (const path of watched.paths) {
          // A file's event (its link count) and a directory's own removal change its parent's record.
          if (watched.file || mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
            this.dirty.add(dirname(path));
          }
          if (!watched.file) this.dirty.add(path);
        }
        if (mask & IN_IGNORED) this.watched.delete(wd);
      }
    }
  }

  private watch(path: string, kind: "dir" | "file"): void {
    if (this.broken || !this.inotify) return;
    const wd = this.inotify.add(path, kind === "dir" ? DIR_EVENTS : FILE_EVENTS);
    if (typeof wd === "number") {
      const entry = this.watched.get(wd);
      if (entry) entry.paths.add(path);
      else this.watched.set(wd, { paths: new Set([path]), file: kind === "file" });
      if (kind === "dir") this.unwatched.delete(path);
      return;
    }
    if (wd.errno === ENOSPC) {
      const limit = readLimit("max_user_watches");
      return this.lose(
        `the inotify watch limit is reached (fs.inotify.max_user_watches${limit ? ` = ${limit}` : ""}): ` +
          "raise it (sysctl fs.inotify.max_user_watches=...) to have runs look only at what changed",
        true,
      );
    }
    // Vanished or replaced meanwhile: the lstat that follows sees it. Otherwise (no permission, ...)
    // the directory is looked at on every scan; a file's parent then is.
    if (wd.errno === ENOENT || wd.errno === ENOTDIR) return;
    if (kind === "dir") this.unwatched.add(path);
    else this.unwatched.add(dirname(path));
    if (wd.errno !== EACCES) this.fullReason ??= `${path} cannot be watched (errno ${wd.errno})`;
  }

  /** Events were lost: every tree is revalidated in full at its next refresh (for good when `forever`). */
  private lose(reason: string, forever: boolean): void {
    if (forever && !this.broken) {
      this.broken = reason;
      this.close();
    }
    this.fullReason = reason;
    this.events++;
    for (const root of this.known) if (!this.needsFull.has(root)) this.needsFull.set(root, reason);
    this.cache = null;
  }
}

/** Removes the barrier files of watchers whose process is gone (killed before `close`). */
function sweepBarriers(dir: string): void {
  for (const name of readdirSync(dir)) {
    const [, namespace, pid] = /^barrier-(\d+)-(\d+)-/.exec(name) ?? [];
    if (namespace && leftoverOwnerGone(namespace, Number(pid))) rmSync(join(dir, name), { force: true });
  }
}

function readLimit(name: string): string | null {
  try {
    return readFileSync(`/proc/sys/fs/inotify/${name}`, "utf8").trim();
  } catch {
    return null;
  }
}
