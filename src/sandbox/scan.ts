/**
 * One walk over each writable root before a run. It finds what a mount plan alone cannot see:
 * - files with more than one hard link whose other links are not all inside the writable roots
 *   (a write through them would change a file elsewhere: a pnpm store, another clone, a victim);
 * - files that share an inode with a read-denied file (reading them would bypass the deny);
 * - nested `.git` directories, whose hooks and config are protected like the root's.
 * Symbolic links are never followed. The cost is one readdir per directory and one lstat per file.
 *
 * Nothing is skipped or cached between runs: a file's link count can grow from outside at any time
 * (`git clone --local` hard-links `.git/objects`, pnpm links its store into `node_modules`) without
 * touching any directory of the workspace, so only a fresh lstat shows it.
 */
import { lstatSync, readdirSync } from "node:fs";
import { relative } from "node:path";

export interface ScanResult {
  /** Files in writable roots hard-linked to something outside them. */
  linkedOutside: string[];
  /** Files in writable roots that are the same inode as a read-denied file. */
  aliasesOfDenied: string[];
  /** `.git` directories below a root (not the root's own), as absolute paths. */
  nestedGitDirs: string[];
  entries: number;
}

export class ScanLimitError extends Error {
  override name = "ScanLimitError";
}

const inodeKey = (st: { dev: number; ino: number }) => `${st.dev}:${st.ino}`;

interface Linked {
  path: string;
  key: string;
  nlink: number;
}

/**
 * Depth-first over `root` without following symlinks; returns the regular files with more than one
 * link. A file with one link is nobody else's file, so it costs an lstat and nothing more: no
 * record, no key (most of a tree, e.g. all of a plain `node_modules`).
 */
function walk(root: string, limit: { left: number }, onDir?: (dir: string) => void): Linked[] {
  const linked: Linked[] = [];
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    let names;
    try {
      names = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable: nothing in it can be written through either
    }
    const prefix = dir === "/" ? "/" : `${dir}/`;
    for (const entry of names) {
      if (--limit.left < 0) throw new ScanLimitError(`more entries than the scan limit under ${root}`);
      const path = prefix + entry.name;
      if (entry.isDirectory()) {
        onDir?.(path);
        stack.push(path);
      } else if (entry.isFile()) {
        let st;
        try {
          st = lstatSync(path);
        } catch {
          continue; // vanished meanwhile
        }
        if (st.nlink > 1) linked.push({ path, key: inodeKey(st), nlink: st.nlink });
      }
    }
  }
  return linked;
}

/**
 * Scans `roots` (absolute, real paths, none inside another) and the read-denied directories.
 * Throws ScanLimitError beyond `maxEntries`, so a caller can refuse instead of running unprotected.
 */
export function scanWritableRoots(roots: string[], denyRead: string[], maxEntries = 500_000): ScanResult {
  const limit = { left: maxEntries };
  const deniedInodes = new Set<string>();
  for (const path of denyRead) {
    try {
      const st = lstatSync(path);
      // A denied file with one link has no alias; only the multi-linked ones are looked for.
      if (st.isFile()) deniedInodes.add(inodeKey(st));
      else if (st.isDirectory()) { for (const f of walk(path, limit)) deniedInodes.add(f.key); }
    } catch {
      // a missing deny path has nothing to alias
    }
  }
  const nestedGitDirs: string[] = [];
  const multiLinked: Linked[] = [];
  for (const root of roots) {
    const onDir = (dir: string) => {
      if (dir.endsWith("/.git") && relative(root, dir) !== ".git") nestedGitDirs.push(dir);
    };
    multiLinked.push(...walk(root, limit, onDir));
  }
  const seen = new Map<string, number>();
  for (const f of multiLinked) seen.set(f.key, (seen.get(f.key) ?? 0) + 1);
  return {
    linkedOutside: multiLinked.filter((f) => seen.get(f.key)! < f.nlink).map((f) => f.path).sort(),
    aliasesOfDenied: multiLinked.filter((f) => deniedInodes.has(f.key)).map((f) => f.path).sort(),
    nestedGitDirs: nestedGitDirs.sort(),
    entries: maxEntries - limit.left,
  };
}
