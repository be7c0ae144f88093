/**
 * What a mount plan alone cannot see, from the per-tree indexes (`tree-index.ts`) of the writable
 * roots and the read-denied directories:
 * - files with more than one hard link whose other links are not all inside the writable roots
 *   (a write through them would change a file elsewhere: a pnpm store, another clone, a victim);
 * - files that share an inode with a read-denied file (reading them would bypass the deny);
 * - `.git` directories, files and links below the roots, whose hooks and config are protected;
 * - directories all of whose files are linked outside (a pnpm package in `node_modules`): one
 *   read-only mount for the directory instead of one per file. Never inside a `.git`, where git adds
 *   new objects next to hard-linked ones (`git clone --local`);
 * - directories that could not be read: nothing below them is known, so they are made read-only.
 * Symbolic links are never followed. A refresh costs one lstat per directory, a readdir per changed
 * directory and an lstat per file in those and per known multi-linked file; never a refusal. With a
 * change watcher (`tree-watch.ts`) only the directories it saw change are looked at.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { collapseLinkMounts, type LinkMounts } from "./mount-plan.ts";
import { timingMark } from "./timing.ts";
import { inodeKey, type RefreshOptions, refreshTree, type TreeIndex } from "./tree-index.ts";
import { lstatSync } from "node:fs";

/** Where a scan gets each tree's index as it is now (`TreeIndexes`, or a change watcher). */
export interface TreeSource {
  /**
   * The index of `root` as it is now. Without `linkCounts`, the link counts of known multi-linked
   * files need not be looked at again (enough to find new `.git` entries after a run).
   */
  refresh(root: string, options?: { linkCounts?: boolean }): TreeIndex | null;
}

export interface ScanResult {
  /** Files in writable roots hard-linked to something outside them, sorted. */
  linkedOutside: string[];
  /**
   * `collapseLinkMounts` of the `linkedOutside` files not in a `linkedOutsideDirs` directory, made
   * by a change watcher with its scan (warm code, once per change; `withLinkMounts`): the plan takes
   * it as is when none of `linkedOutside` is read-denied or under another read-only mount, instead
   * of collapsing a thousand paths in each fresh `toolrt sandbox` process.
   */
  linkMounts?: LinkMounts;
  /**
   * The topmost directories below a root (never a root) holding at least one file, all of whose
   * files (at any depth) are in `linkedOutside`. Read-only as a whole, they cover those files: nothing
   * in them can be written anyway, except new files, which the mount forbids too (stricter, safe).
   */
  linkedOutsideDirs: string[];
  /** Files in writable roots that are the same inode as a read-denied file. */
  aliasesOfDenied: string[];
  /** `.git` directories below a root (not the root's own), as absolute paths. */
  nestedGitDirs: string[];
  /** `.git` entries that are files or symbolic links, the roots' own included. */
  gitPointers: string[];
  /** Directories in the roots or the read-denied directories that could not be read. */
  unreadable: string[];
  /** Directories indexed. */
  entries: number;
}

/**
 * Keeps the trees' indexes: in memory for the life of the object (a run's second look after the
 * command reuses its first), on disk under `dir` when given (private to the user, one file per tree).
 */
export class TreeIndexes implements TreeSource {
  private readonly memory = new Map<string, TreeIndex | null>();
  constructor(private readonly dir?: string) {
    if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /**
   * The index of `root` as it is now (see `RefreshOptions`). Saved when a directory was read
   * again, unless `save` is false (a watcher keeps its indexes in memory between full passes).
   */
  refresh(root: string, options: RefreshOptions & { save?: boolean } = {}): TreeIndex | null {
    const previous = this.memory.has(root) ? this.memory.get(root)! : this.load(root);
    timingMark("index:loaded");
    const { index, reread, looked } = refreshTree(root, previous, options);
    timingMark(`index:refreshed(${looked} looked at, ${reread} read again)`);
    this.memory.set(root, index);
    if ((reread > 0 || !previous) && options.save !== false) this.save(root, index);
    timingMark("index:saved");
    return index;
  }

  private file(root: string): string | null {
    if (!this.dir) return null;
    const hash = new Bun.CryptoHasher("sha256").update(root).digest("hex").slice(0, 32);
    return join(this.dir, `${hash}.json`);
  }

  private load(root: string): TreeIndex | null {
    const file = this.file(root);
    if (!file) return null;
    try {
      const index = JSON.parse(readFileSync(file, "utf8")) as TreeIndex;
      return index.version === 1 && index.root === root && Array.isArray(index.dirs) ? index : null;
    } catch {
      return null; // none yet, or unreadable: a full walk rebuilds it
    }
  }

  private save(root: string, index: TreeIndex | null): void {
    const file = this.file(root);
    if (!file || !index) return;
    const temp = `${file}.${process.pid}.${crypto.randomUUID()}`;
    try {
      writeFileSync(temp, JSON.stringify(index), { mode: 0o600 });
      renameSync(temp, file);
    } catch {
      // a cache: the next run walks again
    }
  }
}

/**
 * The topmost directories below the tree's root whose files are all linked outside. Never inside a
 * `.git`: a local clone hard-links `.git/objects`, and git adds new objects next to the linked ones.
 */
function fullyLinkedDirs(index: TreeIndex, outsideCount: number[]): string[] {
  const files = index.dirs.map((d) => d.files);
  const linked = [...outsideCount];
  // Children come after their parents: summing from the end folds every subtree into its top.
  for (let i = index.dirs.length - 1; i > 0; i--) {
    const up = index.dirs[i]!.up;
    files[up]! += files[i]!;
    linked[up]! += linked[i]!;
  }
  const full = (i: number) => !index.dirs[i]!.git && files[i]! > 0 && linked[i] === files[i];
  return index.dirs.filter((d, i) => i > 0 && full(i) && (d.up === 0 || !full(d.up))).map((d) => d.p);
}

interface Linked {
  path: string;
  key: string;
  nlink: number;
  dir: number;
}

function linkedFiles(index: TreeIndex): Linked[] {
  const files: Linked[] = [];
  index.dirs.forEach((d, dir) => {
    for (const [name, key, nlink] of d.linked ?? []) files.push({ path: `${d.p}/${name}`, key, nlink, dir });
  });
  return files;
}

/**
 * Scans `roots` (absolute, real paths, none inside another) and the read-denied paths through
 * `indexes` (a fresh `TreeIndexes()` walks everything, as with no cache).
 */
export function scanWritableRoots(
  roots: string[],
  denyRead: string[],
  indexes: TreeSource = new TreeIndexes(),
): ScanResult {
  const deniedInodes = new Set<string>();
  const unreadable: string[] = [];
  for (const path of denyRead) {
    let st;
    try {
      st = lstatSync(path, { throwIfNoEntry: false }); // most are missing credential paths
    } catch {
      // not reachable: as missing
    }
    if (!st) continue; // a missing deny path has nothing to alias
    // A denied file with one link has no alias; only the multi-linked ones are looked for.
    if (st.isFile()) deniedInodes.add(inodeKey(st));
    if (!st.isDirectory()) continue;
    const index = indexes.refresh(path);
    for (const f of index ? linkedFiles(index) : []) deniedInodes.add(f.key);
    for (const d of index?.dirs ?? []) if (d.unreadable) unreadable.push(d.p);
  }
  const trees = roots.map((root) => indexes.refresh(root)).filter((t): t is TreeIndex => t !== null);
  const perTree = trees.map(linkedFiles);
  const seen = new Map<string, number>();
  for (const f of perTree.flat()) seen.set(f.key, (seen.get(f.key) ?? 0) + 1);
  const outside = perTree.map((files) => files.filter((f) => seen.get(f.key)! < f.nlink));
  const linkedOutsideDirs = trees.flatMap((tree, t) => {
    if (outside[t]!.length === 0) return [];
    const counts = tree.dirs.map(() => 0);
    for (const f of outside[t]!) counts[f.dir]!++;
    return fullyLinkedDirs(tree, counts);
  });
  for (const t of trees) for (const d of t.dirs) if (d.unreadable) unreadable.push(d.p);
  return {
    linkedOutside: outside.flat().map((f) => f.path).sort(),
    linkedOutsideDirs: linkedOutsideDirs.sort(),
    aliasesOfDenied: perTree.flat().filter((f) => deniedInodes.has(f.key)).map((f) => f.path).sort(),
    ...gitEntriesOf(trees),
    unreadable: unreadable.sort(),
    entries: trees.reduce((sum, t) => sum + t.dirs.length, 0),
  };
}

/** `scan` with its `linkMounts`, for the trees of `roots`. */
export function withLinkMounts(scan: ScanResult, roots: string[]): ScanResult {
  const dirs = new Set(scan.linkedOutsideDirs);
  const inDir = (path: string) => {
    for (let at = path.lastIndexOf("/"); at > 0; at = path.lastIndexOf("/", at - 1)) {
      if (dirs.has(path.slice(0, at))) return true;
    }
    return false;
  };
  const files = dirs.size ? scan.linkedOutside.filter((path) => !inDir(path)) : scan.linkedOutside;
  return { ...scan, linkMounts: collapseLinkMounts(files, roots) };
}

/** After a run: the `.git` entries of the roots as they are now (link counts are not looked at). */
export function scanGitEntries(
  roots: string[],
  indexes: TreeSource,
): Pick<ScanResult, "nestedGitDirs" | "gitPointers"> {
  const trees = roots.map((root) => indexes.refresh(root, { linkCounts: false }));
  return gitEntriesOf(trees.filter((t): t is TreeIndex => t !== null));
}

function gitEntriesOf(trees: TreeIndex[]): Pick<ScanResult, "nestedGitDirs" | "gitPointers"> {
  const nestedGitDirs: string[] = [];
  const gitPointers: string[] = [];
  for (const t of trees) {
    for (const d of t.dirs) {
      // A `.git` record is the first of its subtree marked `git`: its parent is not.
      if (d.git && d.up > 0 && !t.dirs[d.up]!.git) nestedGitDirs.push(d.p);
      if (d.gitPointer) gitPointers.push(`${d.p}/.git`);
    }
  }
  return { nestedGitDirs: nestedGitDirs.sort(), gitPointers: gitPointers.sort() };
}
