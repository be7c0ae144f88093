/**
 * Linux inotify through libc (`bun:ffi`, no native addon): Bun's `fs.watch` neither reports a queue
 * overflow nor a watch that could not be added, and the change watcher (`tree-watch.ts`) must know
 * both to never trust an incomplete picture. Non-blocking: `drain` returns what is queued now.
 *
 * The kernel queues an event while the system call that caused it runs, and one inotify descriptor
 * delivers its events in order: so once the event of a write made by this process is read, every
 * change completed before that write has been read too (the barrier of `tree-watch.ts`).
 */
import { dlopen, FFIType, read as readPointer } from "bun:ffi";

export const IN_MODIFY = 0x2;
export const IN_ATTRIB = 0x4;
export const IN_MOVED_FROM = 0x40;
export const IN_MOVED_TO = 0x80;
export const IN_CREATE = 0x100;
export const IN_DELETE = 0x200;
export const IN_DELETE_SELF = 0x400;
export const IN_MOVE_SELF = 0x800;
export const IN_UNMOUNT = 0x2000;
export const IN_Q_OVERFLOW = 0x4000;
export const IN_IGNORED = 0x8000;
export const IN_ONLYDIR = 0x1000000;
export const IN_DONT_FOLLOW = 0x2000000;

const IN_NONBLOCK = 0o4000;
const IN_CLOEXEC = 0o2000000;
const EAGAIN = 11;
const EINTR = 4;
export const ENOSPC = 28;
export const ENOENT = 2;
export const EACCES = 13;
export const ENOTDIR = 20;

/** An event's watch and kind; the name of the entry it concerns is not needed (its directory is reread). */
export interface InotifyEvent {
  wd: number;
  mask: number;
}

type Libc = ReturnType<typeof openLibc>;
let libc: Libc | null | undefined;

function openLibc() {
  return dlopen("libc.so.6", {
    inotify_init1: { args: [FFIType.i32], returns: FFIType.i32 },
    inotify_add_watch: { args: [FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
    read: { args: [FFIType.i32, FFIType.ptr, FFIType.u64], returns: FFIType.i64 },
    close: { args: [FFIType.i32], returns: FFIType.i32 },
    __errno_location: { args: [], returns: FFIType.ptr },
  }).symbols;
}

function lib(): Libc | null {
  if (libc !== undefined) return libc;
  try {
    libc = process.platform === "linux" ? openLibc() : null;
  } catch {
    libc = null; // no glibc (musl names it otherwise): no watcher, full revalidation
  }
  return libc;
}

const errno = (c: Libc) => readPointer.i32(c.__errno_location()!, 0);

/** Thrown when inotify cannot be used at all here; the caller revalidates in full. */
export class InotifyUnavailable extends Error {
  override name = "InotifyUnavailable";
}

/** What the change watcher uses of an inotify instance (tests put a failing one in its place). */
export interface InotifyLike {
  /** The watch descriptor, or `{ errno }` when the watch could not be added. */
  add(path: string, mask: number): number | { errno: number };
  /** Every event queued now (none when the queue is empty). */
  drain(): InotifyEvent[];
  close(): void;
}

export class Inotify implements InotifyLike {
  private readonly c: Libc;
  private readonly fd: number;
  private readonly buffer = new Uint8Array(64 * 1024);
  private readonly view = new DataView(this.buffer.buffer);
  private closed = false;

  constructor() {
    const c = lib();
    if (!c) throw new InotifyUnavailable("inotify is not available (not Linux, or no glibc)");
    const fd = c.inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) {
      throw new InotifyUnavailable(
        `inotify_init1 failed (errno ${errno(c)}: fs.inotify.max_user_instances reached?)`,
      );
    }
    this.c = c;
    this.fd = fd;
  }

  /** The watch descriptor, or `{ errno }` when the watch could not be added. */
  add(path: string, mask: number): number | { errno: number } {
    const wd = this.c.inotify_add_watch(this.fd, Buffer.from(`${path}\0`), mask);
    return wd >= 0 ? wd : { errno: errno(this.c) };
  }

  /** Every event queued now (none when the queue is empty). */
  drain(): InotifyEvent[] {
    const events: InotifyEvent[] = [];
    for (;;) {
      const n = Number(this.c.read(this.fd, this.buffer, this.buffer.length));
      if (n < 0) {
        const code = errno(this.c);
        if (code === EINTR) continue;
        if (code === EAGAIN) return events;
        throw new Error(`reading the inotify queue failed (errno ${code})`);
      }
      if (n === 0) return events;
      for (let at = 0; at < n;) {
        events.push({ wd: this.view.getInt32(at, true), mask: this.view.getUint32(at + 4, true) });
        at += 16 + this.view.getUint32(at + 12, true); // struct inotify_event, then the name
      }
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.c.close(this.fd);
  }
}
