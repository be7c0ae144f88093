/**
 * Each run's own directory (seccomp program, mask sources, the mount point of `$TMPDIR`), in a
 * directory of this uid's runs under the system temp dir: `toolrt-sbx-<uid>/<pid namespace>-<pid>-<random>`,
 * so a later start can tell whose each was by reading that one directory (not all of `/tmp`). A
 * toolrt killed before its cleanup leaves its directory behind; the first run of the next toolrt
 * process removes those whose owner is gone: same pid namespace, pid not alive. A live run's
 * directory is never touched.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { leftoverOwnerGone, pidNamespace } from "./alive.ts";

const NAME = /^(\d+)-(\d+)-[A-Za-z0-9]{6}$/;
const swept = new Set<string>();

/**
 * This uid's directory of runs in `base`, made if missing. Searchable by others (a command run as
 * the workspace owner reaches its run's mask sources through it), listable and writable by this uid
 * alone; anything else found there (a link, another owner, group- or world-writable) is refused.
 */
export function runsDir(base = tmpdir()): string {
  const uid = process.getuid?.() ?? 0;
  const dir = join(base, `toolrt-sbx-${uid}`);
  try {
    mkdirSync(dir, { mode: 0o711 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o066) !== 0) {
    throw new Error(
      `${dir} is not a private directory of uid ${uid} (owner ${st.uid}, mode ${
        (st.mode & 0o7777).toString(8)
      }` +
        `${st.isSymbolicLink() ? ", a symbolic link" : ""}): remove it; the sandbox will not put a run there`,
    );
  }
  return dir;
}

/** A fresh run directory; the first call per process and directory sweeps stale ones. */
export function makeRunDir(base = tmpdir()): string {
  const dir = runsDir(base);
  if (!swept.has(dir)) {
    swept.add(dir);
    sweepStaleRunDirs(dir);
  }
  return mkdtempSync(join(dir, `${pidNamespace()}-${process.pid}-`));
}

/**
 * Removes the run directories in `dir` of toolrt processes of this pid namespace that are gone, and
 * returns their names. Synchronous: a run's directory holds a few small files (`$TMPDIR` is a tmpfs
 * inside the sandbox), and a CLI run may exit before anything asynchronous ends. Never throws: what
 * cannot be removed waits for another start.
 */
export function sweepStaleRunDirs(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => {
    const [, namespace, owner] = NAME.exec(name) ?? [];
    if (!leftoverOwnerGone(namespace, Number(owner))) return false;
    try {
      if (!lstatSync(join(dir, name)).isDirectory()) return false;
      rmSync(join(dir, name), { recursive: true, force: true });
      return true;
    } catch {
      return false;
    }
  });
}
