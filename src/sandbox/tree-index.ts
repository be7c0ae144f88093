/**
 * A per-tree index of directories, kept in the sandbox's state dir and revalidated by each
 * directory's inode and change time, so a run costs one lstat per directory plus a readdir for the
 * directories that changed, not one lstat per file.
 *
 * What it records per directory: its regular-file count, its files with more than one hard link
 * (name, inode, link count), the names of `.git` entries that are not directories, whether it is in
 * a `.git`, and whether it could not be read. A directory's change time moves whenever an entry is
 * added, removed or renamed in it, and cannot be set back by a program (`touch -d` sets the
 * modification time and moves the change time to now), so an unchanged change time means the same
 * names. A directory changed in the same clock tick as it was read is marked racy and read again
 * next time (as git does for its index).
 *
 * Not seen without a readdir: a file of an unchanged directory that gets a new hard link from
 * outside (its own change time moves, its directory's does not). The multi-linked files already
 * known are lstat-ed on every refresh; see the README for what this leaves. A change watcher
 * (`tree-watch.ts`) passes `trusted` and `watch` to skip what it saw no event for.
 */
import { lstatSync, readdirSync } from "node:fs";

export interface IndexedDir {
  /** Absolute path. */
  p: string;
  /** Index of the parent in `dirs`; -1 for the tree's root. */
  up: number;
  ino: number;
  ctime: number;
  /** Regular files directly inside. */
  files: number;
  /** In a `.git` directory (the `.git` itself included). */
  git?: 1;
  /** Files with more than one link: [name, "dev:ino", link count]. */
  linked?: Array<[string, string, number]>;
  /** Holds a `.git` that is a file or a symbolic link (a pointer to a git directory). */
  gitPointer?: 1;
  /** readdir failed: nothing below is known. */
  unreadable?: 1;
  /** Changed within a clock tick of being read: read again next time. */
  racy?: 1;
}

export interface TreeIndex {
  version: 1;
  root: string;
  /** Parents before children. */
  dirs: IndexedDir[];
}

/** Changes that land in the same coarse clock tick as the read keep the same change time. */
const CLOCK_TICK_MS = 20;

export const inodeKey = (st: { dev: number; ino: number }) => `${st.dev}:${st.ino}`;

export interface RefreshOptions {
  /** Look at the link counts of known multi-linked files again (default true). */
  linkCounts?: boolean;
  /**
   * A change watcher's word that a directory (reached through an unchanged parent) and its known
   * multi-linked files are as recorded: taken without an lstat. Unreadable and racy records are
   * never taken on trust.
   */
  trusted?: (prior: IndexedDir) => boolean;
  /** Called before a directory or a multi-linked file is looked at, so a watch covers what is read. */
  watch?: (path: string, kind: "dir" | "file") => void;
}

/**
 * The index of `root` as it is now, reusing `previous` for every directory whose inode and change
 * time are unchanged. `root` must be a real path. Returns null when `root` is not a directory.
 */
export function refreshTree(
  root: string,
  previous: TreeIndex | null,
  options: RefreshOptions = {},
): { index: TreeIndex | null; reread: number; looked: number } {
  const { linkCounts = true, trusted, watch } = options;
  const old = previous && previous.root === root && previous.version === 1 ? previous.dirs : null;
  // Children by parent, from the parent indexes; paths are looked up only for changed directories.
  const oldChildren: number[][] = old ? old.map(() => []) : [];
  old?.forEach((d, i) => d.up >= 0 && oldChildren[d.up]?.push(i));
  let oldByPath: Map<string, number> | null = null;
  const lookup = (path: string) => {
    oldByPath ??= new Map(old?.map((d, i) => [d.p, i]));
    return oldByPath.get(path);
  };
  const dirs: IndexedDir[] = [];
  let reread = 0;
  let looked = 0;
  // `viaUnchanged`: reached from an unchanged parent record, so the same name still leads here.
  const stack: Array<{ path: string; up: number; git: boolean; before?: number; viaUnchanged?: boolean }> = [{
    path: root,
    up: -1,
    git: false,
    ...(old?.[0]?.p === root ? { before: 0 } : {}),
  }];
  const takeOver = (prior: IndexedDir, before: number, up: number, git: boolean) => {
    // The previous index is not used again: its records are taken over as they are.
    const index = dirs.length;
    prior.up = up;
    dirs.push(prior);
    for (const child of oldChildren[before]!) {
      const c = old![child]!;
      stack.push({
        path: c.p,
        up: index,
        git: git || c.p.endsWith("/.git"),
        before: child,
        viaUnchanged: true,
      });
    }
  };
  while (stack.length) {
    const { path, up, git, before = lookup(path), viaUnchanged } = stack.pop()!;
    const prior = before === undefined ? undefined : old![before]!;
    if (prior && viaUnchanged && !prior.racy && !prior.unreadable && trusted?.(prior)) {
      takeOver(prior, before!, up, git);
      continue;
    }
    watch?.(path, "dir");
    looked++;
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st?.isDirectory()) continue; // vanished or replaced meanwhile
    const index = dirs.length;
    if (prior && !prior.racy && !prior.unreadable && prior.ino === st.ino && prior.ctime === st.ctimeMs) {
      if (prior.linked && linkCounts) prior.linked = relinked(path, prior.linked, watch);
      takeOver(prior, before!, up, git);
      continue;
    }
    reread++;
    const readAt = Date.now();
    const record: IndexedDir = { p: path, up, ino: st.ino, ctime: st.ctimeMs, files: 0 };
    if (git) record.git = 1;
    if (st.ctimeMs >= readAt - CLOCK_TICK_MS) record.racy = 1;
    dirs.push(record);
    let names;
    try {
      names = readdirSync(path, { withFileTypes: true });
    } catch {
      record.unreadable = 1;
      continue;
    }
    const prefix = path === "/" ? "/" : `${path}/`;
    for (const entry of names) {
      const child = prefix + entry.name;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      let isLink = entry.isSymbolicLink();
      if (
        !isDir && !isFile && !isLink && !entry.isFIFO() && !entry.isSocket() && !entry.isCharacterDevice()
      ) {
        try {
          const s = lstatSync(child); // type unknown to readdir on this file system
          isDir = s.isDirectory();
          isFile = s.isFile();
          isLink = s.isSymbolicLink();
        } catch {
          continue;
        }
      }
      if (isDir) {
        stack.push({ path: child, up: index, git: git || entry.name === ".git" });
      } else if (isFile) {
        let fst;
        try {
          fst = lstatSync(child);
          if (fst.nlink > 1 && watch) {
            watch(child, "file");
            fst = lstatSync(child); // as it is now that the watch sees its link count change
          }
        } catch {
          continue; // vanished meanwhile
        }
        record.files++;
        if (fst.nlink > 1) (record.linked ??= []).push([entry.name, inodeKey(fst), fst.nlink]);
      }
      if (entry.name === ".git" && !isDir) record.gitPointer = 1;
    }
  }
  return { index: dirs.length ? { version: 1, root, dirs } : null, reread, looked };
}

/** The known multi-linked files of an unchanged directory, with their link counts as they are now. */
function relinked(
  dir: string,
  linked: Array<[string, string, number]>,
  watch: RefreshOptions["watch"],
): Array<[string, string, number]> {
  const now: Array<[string, string, number]> = [];
  for (const [name] of linked) {
    try {
      watch?.(`${dir}/${name}`, "file");
      const st = lstatSync(`${dir}/${name}`);
      if (st.isFile() && st.nlink > 1) now.push([name, inodeKey(st), st.nlink]);
    } catch {
      // removed meanwhile (the directory's change time will show it next time)
    }
  }
  return now;
}
