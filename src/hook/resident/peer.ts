/**
 * Who is at the other end of a connected unix socket: on Linux, the kernel's record of the peer's
 * credentials (`SO_PEERCRED`, read through libc with `bun:ffi`). A resident process and its callers
 * talk only to their own uid; the socket's directory and modes already keep others out, this checks
 * the process itself. Elsewhere (macOS) the file checks alone hold.
 */
import { dlopen, FFIType } from "bun:ffi";

const SOL_SOCKET = 1;
const SO_PEERCRED = 17;

let getsockopt:
  | ((fd: number, level: number, name: number, value: Uint32Array, length: Uint32Array) => number)
  | null
  | undefined;

function binding() {
  if (getsockopt !== undefined) return getsockopt;
  try {
    const { symbols } = dlopen("libc.so.6", {
      getsockopt: {
        args: [FFIType.i32, FFIType.i32, FFIType.i32, FFIType.ptr, FFIType.ptr],
        returns: FFIType.i32,
      },
    });
    getsockopt = (fd, level, name, value, length) => symbols.getsockopt(fd, level, name, value, length);
  } catch {
    getsockopt = null;
  }
  return getsockopt;
}

/** The peer's uid, or null when it cannot be read (no descriptor, no libc, not a unix socket). */
export function peerUid(fd: unknown): number | null {
  const call = typeof fd === "number" && fd >= 0 ? binding() : null;
  if (!call) return null;
  const cred = new Uint32Array(3); // struct ucred { pid_t pid; uid_t uid; gid_t gid; }
  const length = new Uint32Array([cred.byteLength]);
  return call(fd as number, SOL_SOCKET, SO_PEERCRED, cred, length) === 0 ? cred[1]! : null;
}

/**
 * Whether the process at the other end of `fd` runs as `uid`. On Linux an unreadable peer is not
 * trusted (fails closed: the caller then does without the resident process); elsewhere, true.
 */
export function peerIsUid(fd: unknown, uid: number): boolean {
  if (process.platform !== "linux") return true;
  return peerUid(fd) === uid;
}
