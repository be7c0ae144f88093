/**
 * The file-system half of a Linux sandbox as an ordered list of mounts, computed from a profile, a
 * view of the disk and the pre-run scan. Pure: the disk is read through `FsView`, so tests can fake it.
 *
 * Order inside the sandbox: everything read-only, then writable roots and the private temp dir,
 * then "pins" (a directory bound onto itself, so it cannot be renamed away with its protected
 * children, e.g. `mv .git x && mkdir .git`), then read-only binds and masks, parents before children.
 */
import { dirname, join, relative } from "node:path";
import type { EntryKind } from "./paths.ts";
import { isInside } from "../tool/paths.ts";
import type { SandboxProfile } from "./profile.ts";
import { nestedGitEntries, type ProtectedEntry } from "./protected.ts";
import type { ScanResult } from "./scan.ts";

export type MountOp =
  | { op: "bind"; path: string; why: string }
  | { op: "ro-bind"; path: string; why: string }
  | { op: "mask-file"; path: string; why: string }
  | { op: "mask-dir"; path: string; why: string };

export interface Placeholder {
  path: string;
  kind: "file" | "dir";
}

export interface MountPlan {
  mounts: MountOp[];
  /** Missing protected paths: created empty on the host before the run, read-only inside. */
  placeholders: Placeholder[];
  /** Reasons the plan is unsafe; a non-empty list means the sandbox must refuse to run. */
  refusals: string[];
}

export interface FsView {
  kind(path: string): EntryKind;
}

interface Protection {
  root: string;
  entry: ProtectedEntry;
  why: string;
}

export function planMounts(
  profile: SandboxProfile,
  fs: FsView,
  scan: ScanResult,
  tempDir: string,
): MountPlan {
  const mounts: MountOp[] = [];
  const placeholders: Placeholder[] = [];
  const refusals: string[] = [...profile.problems];
  const pinned = new Set<string>();
  const pin = (root: string, path: string) => {
    for (let dir = dirname(path); dir !== root && isInside(dir, root); dir = dirname(dir)) {
      if (!pinned.has(dir)) mounts.push({ op: "bind", path: dir, why: "pinned: holds a protected path" });
      pinned.add(dir);
    }
  };

  for (const root of profile.writableRoots) mounts.push({ op: "bind", path: root, why: "writable root" });
  mounts.push({ op: "bind", path: tempDir, why: "private temp dir" });

  for (const p of protections(profile, scan, fs)) {
    const outcome = protect(p, fs);
    if (outcome.refusal) refusals.push(outcome.refusal);
    if (!outcome.path) continue;
    pin(p.root, outcome.path);
    if (outcome.placeholder) placeholders.push(outcome.placeholder);
    mounts.push({ op: "ro-bind", path: outcome.path, why: p.why });
  }

  for (const path of profile.denyRead) {
    const kind = fs.kind(path);
    if (kind === "missing") continue;
    const root = profile.writableRoots.find((r) => isInside(path, r));
    if (root && root !== path) pin(root, path);
    mounts.push({ op: kind === "dir" ? "mask-dir" : "mask-file", path, why: "denyRead" });
  }
  const denied = new Set(scan.aliasesOfDenied);
  for (const path of scan.aliasesOfDenied) {
    mounts.push({ op: "mask-file", path, why: "hard link to a read-denied file" });
  }
  for (const path of scan.linkedOutsideDirs) {
    mounts.push({ op: "ro-bind", path, why: "every file in it is hard-linked outside the writable roots" });
  }
  for (const path of scan.linkedOutside) {
    if (denied.has(path) || coveredByReadOnly(path, mounts)) continue;
    mounts.push({ op: "ro-bind", path, why: "hard link to a file outside the writable roots" });
  }

  return { mounts: orderMounts(mounts), placeholders, refusals };
}

/** Every (root, entry) pair to protect: the mandatory list, nested repositories, denyWrite paths. */
function protections(profile: SandboxProfile, scan: ScanResult, fs: FsView): Protection[] {
  const list: Protection[] = [];
  for (const root of profile.writableRoots) {
    const gitIsDir = fs.kind(join(root, ".git")) === "dir";
    for (const entry of profile.protectedEntries) {
      if (entry.insideGitDir && !gitIsDir) continue;
      list.push({ root, entry, why: "protected path" });
    }
    for (const gitDir of scan.nestedGitDirs.filter((d) => isInside(d, root))) {
      for (const entry of nestedGitEntries(relative(root, gitDir))) {
        list.push({ root, entry, why: "protected path (nested repository)" });
      }
    }
  }
  for (const path of profile.denyWrite) {
    const root = profile.writableRoots.find((r) => isInside(path, r));
    if (!root) continue; // outside every writable root: read-only already
    if (root === path) {
      list.push({
        root: dirname(root),
        entry: { path: relative(dirname(root), path), kind: "dir" },
        why: "denyWrite",
      });
      continue;
    }
    const kind = fs.kind(path) === "dir" ? "dir" : "file";
    list.push({ root, entry: { path: relative(root, path), kind }, why: "denyWrite" });
  }
  return list;
}

/**
 * Where to put the read-only mount for one protected entry: the entry itself when it exists, else
 * its first missing component (created as a placeholder). A symlink on the way cannot be pinned (a
 * mount follows it, and the link itself could be swapped), so it is a refusal.
 */
function protect(
  p: Protection,
  fs: FsView,
): { path?: string; placeholder?: Placeholder; refusal?: string } {
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
    if (kind === "missing") {
      return { path, placeholder: { path, kind: last ? p.entry.kind : "dir" } };
    }
    if (last) return { path };
    if (kind !== "dir") return {}; // nothing can be created beneath a file
  }
  return {};
}

function coveredByReadOnly(path: string, mounts: MountOp[]): boolean {
  return mounts.some((m) => m.op !== "bind" && m.path !== path && isInside(path, m.path));
}

const depth = (path: string) => path.split("/").length;

/**
 * Writable binds first, then everything else; within each group parents before children. A bind
 * below a read-only mount is dropped: it would make writable again what the read-only mount covers.
 */
function orderMounts(mounts: MountOp[]): MountOp[] {
  const unique = mounts
    .filter((m, i) => mounts.findIndex((n) => n.op === m.op && n.path === m.path) === i)
    .filter((m) => m.op !== "bind" || !coveredByReadOnly(m.path, mounts));
  const rank = (m: MountOp) => (m.op === "bind" ? 0 : 1);
  return unique
    .map((m, i) => ({ m, i }))
    .sort((a, b) => rank(a.m) - rank(b.m) || depth(a.m.path) - depth(b.m.path) || a.i - b.i)
    .map(({ m }) => m);
}
