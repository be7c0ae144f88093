/**
 * Path handling for sandbox profiles: `~` and relative paths made absolute, then resolved through
 * symbolic links so a mount lands on the directory a write would really reach.
 */
import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
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
 * 40 hops, like the kernel). Returns null for a symlink loop. Existence is asked without
 * exceptions: one thrown per missing component cost milliseconds per profile.
 */
export function resolveReal(path: string): string | null {
  let current = resolve(path);
  for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
    const missing: string[] = [];
    let ancestor = current;
    let resolvedAncestor = realIfExists(ancestor);
    while (resolvedAncestor === null) {
      const parent = dirname(ancestor);
      if (parent === ancestor) return null;
      missing.unshift(ancestor.slice(parent.length).replace(/^\//, ""));
      ancestor = parent;
      resolvedAncestor = realIfExists(ancestor);
    }
    if (missing.length === 0) return resolvedAncestor;
    const first = join(resolvedAncestor, missing[0]!);
    const target = danglingTarget(first);
    if (target === null) return join(resolvedAncestor, ...missing);
    current = join(resolve(dirname(first), target), ...missing.slice(1));
  }
  return null;
}

const LIST_AFTER = 2;

/**
 * `resolveReal` for many paths that mostly do not exist (every credential location under a home):
 * a directory asked about more than `LIST_AFTER` names is listed once, and a name its listing lacks
 * is missing, as is everything below it, with no further system call (a large directory on the way,
 * such as /tmp, is not listed for the one name it is asked). What a listing cannot settle (a name
 * that is there, an unreadable directory) goes to `realpath`, then `resolveReal`. For one profile's
 * paths only: the disk may change afterwards.
 */
export function listingResolveReal(): (path: string) => string | null {
  type Found = { real: string; exists: boolean } | null;
  const found = new Map<string, Found>();
  const listings = new Map<string, Set<string> | null>();
  const asked = new Map<string, number>();
  const listing = (dir: string) => {
    const times = (asked.get(dir) ?? 0) + 1;
    asked.set(dir, times);
    if (times <= LIST_AFTER) return null;
    if (!listings.has(dir)) {
      let names: Set<string> | null = null;
      try {
        names = new Set(readdirSync(dir));
      } catch {
        // not a directory, or not readable: each name is looked up itself
      }
      listings.set(dir, names);
    }
    return listings.get(dir)!;
  };
  const find = (path: string): Found => {
    const known = found.get(path);
    if (known !== undefined) return known;
    const parent = dirname(path);
    let result: Found;
    if (parent === path) {
      result = { real: path, exists: true };
    } else {
      const up = find(parent);
      const name = path.slice(parent.length).replace(/^\//, "");
      if (up === null) result = null;
      else if (!up.exists || listing(up.real)?.has(name) === false) {
        result = { real: join(up.real, name), exists: false };
      } else {
        const real = realIfExists(path);
        const missing = real === null ? resolveReal(path) : null;
        result = real !== null
          ? { real, exists: true }
          : missing === null
          ? null
          : { real: missing, exists: false };
      }
    }
    found.set(path, result);
    return result;
  };
  return (path) => find(resolve(path))?.real ?? null;
}

/** realpath of `path` when it resolves (a dangling link or a loop does not), else null. */
function realIfExists(path: string): string | null {
  try {
    return existsSync(path) ? realpathSync(path) : null;
  } catch {
    return null; // gone meanwhile, or not searchable
  }
}

/** The target of `path` when it is a symbolic link (one that does not resolve, here), else null. */
function danglingTarget(path: string): string | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ? readlinkSync(path) : null;
  } catch {
    return null; // a parent is not a directory, or it changed meanwhile
  }
}

export type EntryKind = "missing" | "file" | "dir" | "symlink" | "other";

/** What is at `path` without following a final symlink. */
export function entryKind(path: string): EntryKind {
  let st;
  try {
    st = lstatSync(path, { throwIfNoEntry: false }); // most paths asked are missing: no exception each
  } catch {
    return "missing"; // ENOTDIR, EACCES on the way
  }
  if (!st) return "missing";
  if (st.isSymbolicLink()) return "symlink";
  if (st.isDirectory()) return "dir";
  if (st.isFile()) return "file";
  return "other";
}
