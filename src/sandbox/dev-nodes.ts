/**
 * Private device nodes for a command that runs as the host's uid 0. bwrap's `--dev` binds the host's
 * own `/dev/null`, `zero`, `full`, `random`, `urandom` and `tty` into the sandbox; their owner is uid 0,
 * and an owner may `chmod` (or set an ACL on) a node without any capability, so such a command could
 * change the host's `/dev/null` for everyone (a `chmod 0` breaks every program on the host). Binding them
 * read-only is no way out: bwrap's remount adds `nodev` and they no longer open.
 *
 * So toolrt (root then, with CAP_MKNOD) makes a node of each in the run's own directory (same device,
 * mode 0666) and binds it over bwrap's by descriptor: a chmod inside changes only that run's node. The
 * directory must be on a file system without `nodev`; the run dir (system temp dir) is tried first,
 * then one under the state dir. When neither works the run is refused: falling back on the host's
 * nodes would hand them over again.
 *
 * A command that does not run as uid 0 does not own the host's nodes: nothing is made then.
 */
import { chmodSync, closeSync, fstatSync, mkdirSync, openSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { pinPath } from "./pin.ts";
import { makeRunDir } from "./run-dir.ts";

export interface DevNode {
  name: string;
  major: number;
  minor: number;
}

/** What bwrap's `--dev` binds from the host (bubblewrap's `devnodes`), with each device's fixed number. */
export const DEV_NODES: readonly DevNode[] = [
  { name: "null", major: 1, minor: 3 },
  { name: "zero", major: 1, minor: 5 },
  { name: "full", major: 1, minor: 7 },
  { name: "random", major: 1, minor: 8 },
  { name: "urandom", major: 1, minor: 9 },
  { name: "tty", major: 5, minor: 0 },
];

const S_IFCHR = 0o020000;
const NODE_MODE = 0o666;

/** A node made for one run: where it goes inside the sandbox, and a descriptor (O_PATH) on it. */
export interface PrivateDevNode {
  target: string;
  fd: number;
}

/** The private nodes could not be made anywhere; `reasons` says why, per place tried. */
export class DevNodesError extends Error {
  override name = "DevNodesError";
}

type Mknod = (path: string, mode: number, major: number, minor: number) => void;

/**
 * The host nodes `--dev` would bind that `uid` owns. In a rootless container uid 0 owns none (they
 * belong to an unmapped uid there, and mknod is refused too): nothing to replace then.
 */
export function ownedHostNodes(uid: number, ownerOf = (path: string) => statSync(path).uid): DevNode[] {
  return DEV_NODES.filter(({ name }) => {
    try {
      return ownerOf(`/dev/${name}`) === uid;
    } catch {
      return false; // missing: bwrap binds nothing of the host's there
    }
  });
}

/**
 * A run's nodes for the host nodes this process owns: in its run dir, else in a run dir under
 * `stateDir` (made only then). `cleanups` gets the closing of each descriptor and the removal of that
 * second directory. `place` says which was used ("none" when no host node is owned).
 */
export function devNodesForRun(
  runDir: string,
  stateDir: string,
  cleanups: Array<() => void | Promise<void>>,
  owned: readonly DevNode[] = ownedHostNodes(process.getuid?.() ?? 0),
): { nodes: PrivateDevNode[]; place: "temp dir" | "state dir" | "none" } {
  if (owned.length === 0) return { nodes: [], place: "none" };
  const inStateDir = () => {
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    const dir = makeRunDir(stateDir);
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  };
  const { nodes, index } = makePrivateDevNodes([() => runDir, inStateDir], owned);
  for (const { fd } of nodes) cleanups.push(() => closeSync(fd));
  return { nodes, place: index === 0 ? "temp dir" : "state dir" };
}

/**
 * Makes the nodes in `<dir>/dev` for the first of `places` (each makes its directory when asked) where
 * they open, and returns them pinned. Throws DevNodesError naming every place tried and why it failed.
 */
export function makePrivateDevNodes(
  places: ReadonlyArray<() => string>,
  which: readonly DevNode[] = DEV_NODES,
  mknod: Mknod = libcMknod,
): { nodes: PrivateDevNode[]; index: number } {
  const failures: string[] = [];
  for (const [i, place] of places.entries()) {
    let dir = `place ${i + 1}`;
    try {
      dir = place();
      return { nodes: makeIn(join(dir, "dev"), which, mknod), index: i };
    } catch (error) {
      failures.push(`${dir}: ${(error as Error).message}`);
    }
  }
  throw new DevNodesError(
    "the command would run as the host's uid 0 and own the host's /dev/null, /dev/zero ... (a chmod there " +
      `changes them for the whole host), and no private ones could be made (${failures.join("; ")}): point ` +
      "TMPDIR at a file system mounted without nodev, or run toolrt as another user, or give the workspace " +
      "a non-root owner",
  );
}

function makeIn(dir: string, which: readonly DevNode[], mknod: Mknod): PrivateDevNode[] {
  mkdirSync(dir, { mode: 0o700 });
  const nodes: PrivateDevNode[] = [];
  try {
    for (const { name, major, minor } of which) {
      const path = join(dir, name);
      mknod(path, S_IFCHR | NODE_MODE, major, minor);
      chmodSync(path, NODE_MODE); // the umask took bits off
      const fd = pinPath(path);
      nodes.push({ target: `/dev/${name}`, fd });
      const st = fstatSync(fd);
      if (!st.isCharacterDevice() || st.rdev !== makedev(major, minor) || (st.mode & 0o7777) !== NODE_MODE) {
        throw new Error(`${path} is not the node just made`);
      }
    }
    // /dev/tty opens only with a controlling terminal: any other node shows a `nodev` mount.
    const probe = which.find((n) => n.name !== "tty");
    try {
      if (probe) closeSync(openSync(join(dir, probe.name), "r"));
    } catch (error) {
      // A `nodev` mount refuses the open; so would the bind of the node inside the sandbox.
      throw new Error(`its nodes do not open (${(error as NodeJS.ErrnoException).code}: mounted nodev?)`);
    }
    return nodes;
  } catch (error) {
    for (const n of nodes) closeSync(n.fd);
    throw error;
  }
}

/** Linux's `dev_t` encoding (glibc `makedev`). */
function makedev(major: number, minor: number): number {
  return ((major & 0xfff) << 8) | (minor & 0xff) | ((minor & ~0xff) << 12);
}

/** libc's `mknod`, returning 0 or the errno. */
let libc: ((path: Buffer, mode: number, dev: bigint) => number) | null | undefined;

/** `mknod(2)` through libc (`bun:ffi`); the `mknod` program when libc has no such symbol (glibc < 2.33). */
function libcMknod(path: string, mode: number, major: number, minor: number): void {
  if (libc === undefined) {
    try {
      const { dlopen, FFIType, read } = require("bun:ffi") as typeof import("bun:ffi");
      const symbols = dlopen("libc.so.6", {
        mknod: { args: [FFIType.ptr, FFIType.u32, FFIType.u64], returns: FFIType.i32 },
        __errno_location: { args: [], returns: FFIType.ptr },
      }).symbols;
      libc = (p, m, d) => symbols.mknod(p, m, d) === 0 ? 0 : read.i32(symbols.__errno_location()!, 0);
    } catch {
      libc = null;
    }
  }
  if (libc) {
    const errno = libc(Buffer.from(`${path}\0`), mode, BigInt(makedev(major, minor)));
    if (errno !== 0) throw new Error(`mknod ${path} failed (errno ${errno})`);
    return;
  }
  const made = Bun.spawnSync(["mknod", path, "c", String(major), String(minor)], { stderr: "pipe" });
  if (made.exitCode !== 0) throw new Error(made.stderr.toString().trim() || `mknod ${path} failed`);
}
