/**
 * Each run's own directory under the system temp dir (seccomp program, mask sources, the mount
 * point of `$TMPDIR`), named `toolrt-sbx-<pid namespace>-<pid>-<random>` so a later start can tell
 * whose it was. A toolrt killed before its cleanup leaves its directory behind; the first run of
 * the next toolrt process removes those whose owner is gone: same pid namespace, pid not alive, and
 * owned by this uid. A live run's directory is never touched.
 */
import { lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isAlive, pidNamespace } from "./alive.ts";

const PREFIX = "toolrt-sbx-";
const NAME = /^toolrt-sbx-(\d+)-(\d+)-[A-Za-z0-9]{6}$/;
const swept = new Set<string>();

/** A fresh run directory in `parent`; the first call per parent and process sweeps stale ones. */
export function makeRunDir(parent = tmpdir()): string {
  if (!swept.has(parent)) {
    swept.add(parent);
    sweepStaleRunDirs(parent);
  }
  return mkdtempSync(join(parent, `${PREFIX}${pidNamespace()}-${process.pid}-`));
}

/**
 * Removes the run directories in `parent` of toolrt processes of this pid namespace that are gone,
 * and returns their names. Synchronous: a run's own directory holds a few small files (`$TMPDIR` is
 * a tmpfs inside the sandbox), and a CLI run may exit before anything asynchronous ends. Never
 * throws: what cannot be removed waits for another start.
 */
export function sweepStaleRunDirs(parent: string): string[] {
  let names: string[];
  try {
    names = readdirSync(parent).filter((name) => name.startsWith(PREFIX));
  } catch {
    return [];
  }
  const stale = names.filter((name) => {
    const [, namespace, owner] = NAME.exec(name) ?? [];
    const pid = Number(owner);
    if (namespace !== pidNamespace() || !pid || pid === process.pid || isAlive(pid)) return false;
    try {
      const st = lstatSync(join(parent, name));
      return st.isDirectory() && st.uid === process.getuid?.();
    } catch {
      return false;
    }
  });
  const removed = stale.filter((name) => {
    try {
      rmSync(join(parent, name), { recursive: true, force: true });
      return true;
    } catch {
      return false;
    }
  });
  return removed;
}
