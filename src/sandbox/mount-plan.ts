/**
 * The file-system half of a Linux sandbox as an ordered list of mounts, computed from a profile, a
 * view of the disk, the scan and the git layout. Pure: the disk is read through `FsView`, so tests
 * can fake it.
 *
 * Order inside the sandbox: everything read-only, then empty private `/tmp` and `/var/tmp`, then
 * writable roots, the private temp dir and what must stay visible in `/tmp`, then "pins" (a directory bound onto itself, so it cannot be renamed away with its protected
 * children, e.g. `mv .git x && mkdir .git`), then read-only binds and masks, parents before children.
 *
 * Nothing is created on the host: a protected path that does not exist yet cannot carry a mount, so
 * it is listed in `absent`, and whatever the command leaves there is moved to quarantine after the
 * run (`quarantine.ts`).
 */
import { dirname, join, relative } from "node:path";
import type { EntryKind } from "./paths.ts";
import { isInside } from "../tool/paths.ts";
import type { GitLayout } from "./git-dirs.ts";
import type { SandboxProfile } from "./profile.ts";
import { GIT_DIR_PROTECTED, type ProtectedEntry } from "./protected.ts";
import type { ScanResult } from "./scan.ts";

export type MountOp =
  | { op: "bind"; path: string; why: string }
  | { op: "ro-bind"; path: string; why: string }
  | { op: "mask-file"; path: string; why: string }
  | { op: "mask-dir"; path: string; why: string }
  /** An executable file with `text` over a program a rule names (`program-masks.ts`). */
  | { op: "stub"; path: string; why: string; text: string }
  /** A shared host temp dir replaced by an empty tmpfs of the sandbox's own, read-only once all is mounted. */
  | { op: "private-tmp"; path: string; why: string }
  /** Read-only, mounted with the writable binds (before protections): kept visible in a private temp dir. */
  | { op: "show"; path: string; why: string };

/**
 * Host directories every process shares for scratch files, where other sessions and tools leave
 * shell snapshots, temp credential files and output. With the profile's `privateTmp` the sandbox
 * gets an empty, read-only one of its own instead (as the host's was read-only, a write there fails
 * and is reported); what must stay visible in them (writable roots, `PlanContext.visible`) is bound
 * back. Off by default: agents and tools run scripts they leave there (the host's stay read-only).
 * X11 and agent sockets there are not needed: the seccomp filter forbids unix sockets anyway.
 */
export const PRIVATE_HOST_DIRS: readonly string[] = ["/tmp", "/var/tmp"];

/** A protected path missing at the start; anything the command leaves there is quarantined. */
export interface AbsentPath {
  path: string;
  root: string;
  why: string;
}

/** A protection not given as asked, or given by making more read-only than asked. */
export interface PlanNotice {
  id: "link-mounts-collapsed" | "unreadable-dir" | "unreadable-denied-dir";
  path: string;
  message: string;
  /** What the user can do about it. */
  remedy: string;
}

export interface MountPlan {
  mounts: MountOp[];
  absent: AbsentPath[];
  notices: PlanNotice[];
  /** Reasons the plan is unsafe; a non-empty list means the sandbox must refuse to run. */
  refusals: string[];
}

export interface FsView {
  kind(path: string): EntryKind;
}

export interface PlanContext {
  /** Git directories and pointers to protect; default: each root's `.git` directory and the scan's. */
  git?: GitLayout;
  /** The sandbox's own state (indexes, quarantine): hidden (an empty read-only directory) in the sandbox. */
  stateDir?: string;
  /**
   * Paths outside the writable roots the command needs to see although they lie in a private temp
   * dir (its working directory, its PATH directories, the programs toolrt starts in it): bound back
   * read-only.
   */
  visible?: readonly string[];
}

interface Protection {
  root: string;
  entry: ProtectedEntry;
  why: string;
}

/**
 * Read-only mounts for hard-linked files beyond this are collapsed into their directories: bwrap
 * re-reads the mount table for each mount (measured: 100 file mounts 32 ms, 1,000 mounts 1.3 s).
 */
export const MAX_LINK_MOUNTS = 64;

export function planMounts(
  profile: SandboxProfile,
  fs: FsView,
  scan: ScanResult,
  tempDir: string,
  context: PlanContext = {},
): MountPlan {
  const mounts: MountOp[] = [];
  const absent: AbsentPath[] = [];
  const notices: PlanNotice[] = [];
  const refusals: string[] = [...profile.problems];
  const pinned = new Set<string>();
  const pin = (root: string, path: string) => {
    for (let dir = dirname(path); dir !== root && isInside(dir, root); dir = dirname(dir)) {
      if (!pinned.has(dir)) mounts.push({ op: "bind", path: dir, why: "pinned: holds a protected path" });
      pinned.add(dir);
    }
  };

  const privateDirs = PRIVATE_HOST_DIRS.filter((dir) =>
    profile.privateTmp && fs.kind(dir) === "dir" && !profile.writableRoots.some((root) => isInside(dir, root))
  );
  for (const dir of privateDirs) {
    mounts.push({ op: "private-tmp", path: dir, why: "shared temp dir: the sandbox gets its own" });
  }
  for (const root of profile.writableRoots) mounts.push({ op: "bind", path: root, why: "writable root" });
  mounts.push({ op: "bind", path: tempDir, why: "private temp dir" });
  const needed = (path: string) =>
    privateDirs.some((dir) => path !== dir && isInside(path, dir)) &&
    !profile.writableRoots.some((root) => isInside(path, root)) && fs.kind(path) !== "missing";
  for (const path of new Set((context.visible ?? []).filter(needed))) {
    mounts.push({ op: "show", path, why: "needed by the command, in a private temp dir" });
  }

  const git = context.git ?? defaultGitLayout(profile, fs, scan);
  for (const p of protections(profile, fs, git)) {
    const outcome = protect(p, fs);
    if ("refusal" in outcome) refusals.push(outcome.refusal);
    else if ("present" in outcome) {
      pin(p.root, outcome.present);
      mounts.push({ op: "ro-bind", path: outcome.present, why: p.why });
    } else if ("absent" in outcome) {
      pin(p.root, outcome.firstMissing);
      absent.push({ path: outcome.absent, root: p.root, why: p.why });
    }
  }

  // The indexes name files of the workspace and of read-denied directories: no sandbox sees them.
  const hidden = context.stateDir && fs.kind(context.stateDir) === "dir" ? [context.stateDir] : [];
  for (const path of [...profile.denyRead, ...hidden]) {
    const kind = fs.kind(path);
    if (kind === "missing") continue;
    const root = profile.writableRoots.find((r) => isInside(path, r));
    if (root && root !== path) pin(root, path);
    const why = path === hidden[0] ? "the sandbox's own state" : "denyRead";
    mounts.push({ op: kind === "dir" ? "mask-dir" : "mask-file", path, why });
  }
  const denied = new Set(scan.aliasesOfDenied);
  for (const path of scan.aliasesOfDenied) {
    mounts.push({ op: "mask-file", path, why: "hard link to a read-denied file" });
  }
  for (const path of scan.unreadable) {
    const root = profile.writableRoots.find((r) => isInside(path, r));
    if (!root) {
      notices.push({
        id: "unreadable-denied-dir",
        path,
        message: `${path} could not be read, so a hard link in a writable root to a read-denied file in it ` +
          `is not masked`,
        remedy:
          `make it readable to this user (chmod u+rx), or keep hard links to its files out of the workspace`,
      });
      continue;
    }
    mounts.push({ op: "ro-bind", path, why: "could not be read: its hard links are unknown" });
    notices.push({
      id: "unreadable-dir",
      path,
      message:
        `${path} could not be read, so the hard links in it are unknown: it is read-only in the sandbox`,
      remedy: `make it readable to this user (chmod u+rx) to have it writable`,
    });
  }
  for (const path of scan.linkedOutsideDirs) {
    mounts.push({ op: "ro-bind", path, why: "every file in it is hard-linked outside the writable roots" });
  }
  const collapsed = linkMounts(scan, denied, readOnlyPaths(mounts), profile.writableRoots);
  for (const path of collapsed.files) {
    mounts.push({ op: "ro-bind", path, why: "hard link to a file outside the writable roots" });
  }
  for (const { path, count } of collapsed.dirs) {
    mounts.push({ op: "ro-bind", path, why: `holds ${count} files hard-linked outside the writable roots` });
    notices.push({
      id: "link-mounts-collapsed",
      path,
      message: `${path} is read-only in the sandbox (nothing can be added to it): it holds ${count} files ` +
        `hard-linked to files outside the writable roots, more than one mount each can cover`,
      remedy: path.includes("/.git/") || path.endsWith("/.git")
        ? `run \`git repack -a -d\` in that repository outside the sandbox (a local clone's objects are hard ` +
          `links to the other clone's; the new pack is the repository's own)`
        : `replace the links by copies (e.g. \`cp -a --remove-destination\` or a package manager's copy mode)`,
    });
  }

  return { mounts: orderMounts(mounts), absent, notices, refusals };
}

/**
 * The linked-file mounts of a scan, remembered while the scan object lives: a change watcher hands
 * the same scan back while nothing changed, and a session's next command then skips the work (about
 * 4 ms at 1,000 linked files). Keyed by everything else they depend on.
 */
const linkMountsMemo = new WeakMap<ScanResult, { key: string; result: LinkMounts }>();

function linkMounts(
  scan: ScanResult,
  denied: Set<string>,
  readOnly: Set<string>,
  roots: string[],
): LinkMounts {
  if (scan.linkMounts) {
    // Its files are those outside `linkedOutsideDirs`, which are read-only mounts already.
    const others = new Set(readOnly);
    for (const dir of scan.linkedOutsideDirs) others.delete(dir);
    if (!someListed(scan.linkedOutside, denied, others)) return scan.linkMounts;
  }
  const key = JSON.stringify([roots, [...readOnly].sort()]);
  const known = linkMountsMemo.get(scan);
  if (known?.key === key) return known.result;
  const memo = new Map<string, boolean>();
  const linked = scan.linkedOutside.filter((path) => !denied.has(path) && !coveredBy(path, readOnly, memo));
  const result = collapseLinkMounts(linked, roots);
  linkMountsMemo.set(scan, { key, result });
  return result;
}

/** Without a layout from the disk: each root's `.git` directory and the nested ones the scan found. */
function defaultGitLayout(profile: SandboxProfile, fs: FsView, scan: ScanResult): GitLayout {
  const own = profile.writableRoots.map((r) => join(r, ".git")).filter((g) => fs.kind(g) === "dir");
  return { gitDirs: [...own, ...scan.nestedGitDirs], pointers: [], includes: [] };
}

/** Every (root, entry) pair to protect: the mandatory list, git directories and pointers, denyWrite. */
function protections(profile: SandboxProfile, fs: FsView, git: GitLayout): Protection[] {
  const list: Protection[] = [];
  const rootOf = (path: string) => profile.writableRoots.find((r) => r !== path && isInside(path, r));
  for (const root of profile.writableRoots) {
    for (const entry of profile.protectedEntries) {
      if (!entry.insideGitDir) list.push({ root, entry, why: "protected path" });
    }
  }
  for (const gitDir of git.gitDirs) {
    const root = rootOf(gitDir);
    if (!root) continue; // outside every writable root: read-only already
    for (const entry of GIT_DIR_PROTECTED) {
      list.push({
        root,
        entry: { ...entry, path: join(relative(root, gitDir), entry.path) },
        why: "protected path (git)",
      });
    }
  }
  for (const pointer of git.pointers) {
    const root = rootOf(pointer.path);
    if (!root || pointer.kind !== "file") continue; // a link cannot carry a mount: checked after the run
    list.push({
      root,
      entry: { path: relative(root, pointer.path), kind: "file" },
      why: "protected path (git)",
    });
  }
  for (const include of git.includes) {
    const root = rootOf(include);
    if (!root) continue; // outside every writable root: read-only already
    list.push({
      root,
      entry: { path: relative(root, include), kind: "file" },
      why: "protected path (git config includes it)",
    });
  }
  const inRoot = (path: string, why: string) => {
    const root = profile.writableRoots.find((r) => isInside(path, r));
    if (!root) return; // outside every writable root: read-only already
    if (root === path) {
      list.push({ root: dirname(root), entry: { path: relative(dirname(root), path), kind: "dir" }, why });
      return;
    }
    const kind = fs.kind(path) === "dir" ? "dir" : "file";
    list.push({ root, entry: { path: relative(root, path), kind }, why });
  };
  for (const path of profile.denyWrite) inRoot(path, "denyWrite");
  return list;
}

type Outcome =
  | { present: string }
  | { absent: string; firstMissing: string }
  | { refusal: string }
  | { nothing: true };

/**
 * Where to put the read-only mount for one protected entry: the entry itself when it exists. A
 * missing one is watched from its first missing component. A symlink on the way cannot be pinned (a
 * mount follows it, and the link itself could be swapped), so it is a refusal.
 */
function protect(p: Protection, fs: FsView): Outcome {
  const parts = p.entry.path.split("/");
  for (let i = 0; i < parts.length; i++) {
    const path = join(p.root, ...parts.slice(0, i + 1));
    const last = i === parts.length - 1;
    const kind = fs.kind(path);
    if (kind === "symlink") {
      return {
        refusal: `${path} is a symbolic link inside the writable root ${p.root}; the ${p.why} ` +
          `${join(p.root, p.entry.path)} cannot be kept read-only through it. Replace the link with the ` +
          `real file or directory, or run without this writable root.`,
      };
    }
    if (kind === "missing") return { absent: join(p.root, p.entry.path), firstMissing: path };
    if (last) return { present: path };
    if (kind !== "dir") return { nothing: true }; // nothing can be created beneath a file
  }
  return { nothing: true };
}

/** Read-only mounts for hard-linked files: files on their own, and directories that hold many. */
export interface LinkMounts {
  files: string[];
  dirs: Array<{ path: string; count: number }>;
}

/**
 * At most MAX_LINK_MOUNTS read-only mounts for `files`: while there are more, the deepest ones are
 * replaced by their directories (never a root itself unless nothing else is left).
 */
export function collapseLinkMounts(files: string[], roots: string[]): LinkMounts {
  if (files.length <= MAX_LINK_MOUNTS) return { files, dirs: [] };
  const isRoot = new Set(roots);
  // target path -> how many files it covers; the targets by depth, to collapse the deepest first
  const count = new Map<string, number>();
  const byDepth: Array<Set<string>> = [];
  const collapsed = new Set<string>();
  const add = (target: string, at: number, n: number) => {
    const had = count.get(target);
    count.set(target, (had ?? 0) + n);
    if (had === undefined) (byDepth[at] ??= new Set()).add(target);
    return had === undefined;
  };
  for (const file of files) add(file, depth(file), 1);
  for (let at = byDepth.length - 1; at > 1 && count.size > MAX_LINK_MOUNTS; at--) {
    const made: string[] = [];
    for (const target of byDepth[at] ?? []) {
      if (isRoot.has(target)) continue;
      const n = count.get(target)!;
      count.delete(target);
      const up = parentOf(target);
      if (add(up, at - 1, n)) made.push(up);
      collapsed.add(up);
    }
    // A new target below another one is covered by it.
    for (const target of made) {
      for (let up = parentOf(target); up !== "/"; up = parentOf(up)) {
        if (!count.has(up)) continue;
        count.set(up, count.get(up)! + count.get(target)!);
        count.delete(target);
        collapsed.add(up);
        break;
      }
    }
  }
  const result = { files: [] as string[], dirs: [] as Array<{ path: string; count: number }> };
  for (const [target, n] of count) {
    if (collapsed.has(target)) result.dirs.push({ path: target, count: n });
    else result.files.push(target);
  }
  return result;
}

/**
 * Whether a path of `sorted` is in `denied` or below a path of `readOnly`: looked up by binary
 * search, per denied or read-only path (a handful) rather than per file (a thousand). Should `sorted`
 * not be sorted, a path may be missed: its scan's collapse then covers it too (more read-only, safe).
 */
function someListed(sorted: string[], denied: Set<string>, readOnly: Set<string>): boolean {
  const firstAtLeast = (value: string) => {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (sorted[mid]! < value) low = mid + 1;
      else high = mid;
    }
    return sorted[low];
  };
  for (const path of denied) if (firstAtLeast(path) === path) return true;
  for (const path of readOnly) {
    const below = path === "/" ? "/" : `${path}/`;
    if (firstAtLeast(below)?.startsWith(below)) return true;
  }
  return false;
}

/** An absolute path's parent (`dirname` without its normalising, for paths already normal). */
function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "/" : path.slice(0, slash);
}

/**
 * Whether a read-only mount (not `path` itself) in `readOnly` covers `path`. `memo` keeps the
 * answer per directory: the linked files of one directory (a `.git/objects/xx`) share it.
 */
function coveredBy(path: string, readOnly: Set<string>, memo = new Map<string, boolean>()): boolean {
  if (path === "/") return false;
  const parent = parentOf(path);
  let covered = memo.get(parent);
  if (covered === undefined) {
    covered = readOnly.has(parent) || coveredBy(parent, readOnly, memo);
    memo.set(parent, covered);
  }
  return covered;
}

/** Paths whose mount keeps what is below it from being written (what a later bind must not undo). */
function readOnlyPaths(mounts: MountOp[]): Set<string> {
  return new Set(mounts.filter((m) => !MOUNTED_FIRST.has(m.op)).map((m) => m.path));
}

/** Mounted before protections and masks, in this order: fresh temp dirs, then the binds among themselves. */
const MOUNTED_FIRST = new Map<MountOp["op"], number>([["private-tmp", 0], ["bind", 1], ["show", 1]]);

/** Components in an absolute path (counted, not split: called for every linked file). */
function depth(path: string): number {
  let n = 0;
  for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) n++;
  return n;
}

/**
 * Writable binds first, then everything else; within each group parents before children. A bind
 * below a read-only mount is dropped: it would make writable again what the read-only mount covers.
 */
function orderMounts(mounts: MountOp[]): MountOp[] {
  const seen = new Set<string>();
  const unique = mounts.filter((m) => {
    const key = `${m.op}\0${m.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const readOnly = readOnlyPaths(unique);
  const kept = unique.filter((m) => !MOUNTED_FIRST.has(m.op) || !coveredBy(m.path, readOnly));
  const rank = (m: MountOp) => MOUNTED_FIRST.get(m.op) ?? 2;
  return kept
    .map((m, i) => ({ m, i }))
    .sort((a, b) => rank(a.m) - rank(b.m) || depth(a.m.path) - depth(b.m.path) || a.i - b.i)
    .map(({ m }) => m);
}
