/**
 * Path handling for sandbox profiles: `~` and relative paths made absolute, then resolved through
 * symbolic links so a mount lands on the directory a write would really reach.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** `~` and `~/x` against `home`, relative paths against `base`; `..` and `.` are folded. Pure. */
export function expandPath(path: string, context: { home: string; base: string }): string {
  if (path === "~") return resolve(context.home);
  if (path.startsWith("~/")) return resolve(context.home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(context.base, path);
}

const MAX_LINK_HOPS = 40;

/**
 * The real location of `path`, which need not exist: the deepest existing ancestor is resolved
 * with realpath and the missing rest appended; a dangling symlink on the way is followed (at most
 * 40 hops, like the kernel). Returns null for a symlink loop.
 */
export function resolveReal(path: string): string | null {
  let current = resolve(path);
  for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
    try {
      return realpathSync(current);
    } catch {
      // some component is missing or a dangling link: handled below
    }
    const missing: string[] = [];
    let ancestor = current;
    let resolvedAncestor: string | null = null;
    while (resolvedAncestor === null) {
      const parent = dirname(ancestor);
      if (parent === ancestor) return null;
      missing.unshift(ancestor.slice(parent.length).replace(/^\//, ""));
      ancestor = parent;
      try {
        resolvedAncestor = realpathSync(ancestor);
      } catch {
        // keep climbing
      }
    }
    const first = join(resolvedAncestor, missing[0]!);
    let target: string;
    try {
      target = readlinkSync(first);
    } catch {
      return join(resolvedAncestor, ...missing);
    }
    current = join(resolve(dirname(first), target), ...missing.slice(1));
  }
  return null;
}

export type EntryKind = "missing" | "file" | "dir" | "symlink" | "other";

/** What is at `path` without following a final symlink. */
export function entryKind(path: string): EntryKind {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return "symlink";
    if (st.isDirectory()) return "dir";
    if (st.isFile()) return "file";
    return "other";
  } catch {
    return "missing";
  }
}
