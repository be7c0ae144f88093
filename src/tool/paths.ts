/**
 * Path questions every layer (policy, sandbox, tools) must answer the same way: where a written
 * path points (tilde forms, `..`, symlinks against the file system now), which files a shell
 * pattern names, and whether a path lies inside a directory.
 */
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { userInfo } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { hasPattern, patternMatcher } from "./shell-pattern.ts";

/** Is `path` equal to `dir` or below it? Both absolute and normalised. */
export function isInside(path: string, dir: string): boolean {
  if (path === dir) return true;
  return path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

/**
 * The real path of `path` (symlinks followed), also for a file that does not exist yet: the real
 * path of its nearest existing ancestor joined with the missing rest. `path` may hold `..` after a
 * symlink (`link/../x`); it is then resolved as the kernel does, from the link's target.
 */
export function realPathOfNearestExisting(path: string): string {
  let existing = path;
  while (true) {
    try {
      return resolve(realpathSync.native(existing), relative(resolve(existing), resolve(path)));
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return resolve(path);
      existing = parent;
    }
  }
}

/** Where a path was written from: the directory relative paths start at, and the home for `~`. */
export interface PathBase {
  cwd: string;
  home: string;
  /**
   * Shell tilde forms too: `~user` is that user's home, and `~+`, `~-`, `~N` (the shell's
   * directories) cannot be resolved. Without it only `~` and `~/...` expand, as in the file tools.
   */
  shell?: boolean;
}

export interface ResolvedPath {
  /** Absolute, `..` and `.` resolved lexically. */
  path: string;
  /** The same path written from the root, unnormalised, for the kernel's reading (`link/../x`). */
  raw: string;
  /** Why the location cannot be known at decision time; such a path counts as outside everything. */
  unresolved?: string;
}

/** Resolves one written path. Pure apart from reading the user database for `~user`. */
export function resolvePath(written: string, base: PathBase): ResolvedPath {
  const tilde = /^~([^/]*)(\/.*)?$/.exec(written);
  if (tilde) {
    const [, user = "", rest = ""] = tilde;
    const home = user === "" ? base.home : base.shell ? userHome(user) : undefined;
    if (home !== undefined) return { path: resolve(home + rest), raw: home + rest };
    if (base.shell && /^[+-]?\d*$/.test(user)) {
      return {
        path: written,
        raw: written,
        unresolved: `${written} names a directory of the shell's own history`,
      };
    }
    if (base.shell) {
      return { path: written, raw: written, unresolved: `${written}: no user ${user} is known here` };
    }
  }
  return { path: resolve(base.cwd, written), raw: isAbsolute(written) ? written : `${base.cwd}/${written}` };
}

let passwd: Map<string, string> | undefined;

/** A user's home from the user database (`/etc/passwd`); the current user's from the environment's view. */
function userHome(user: string): string | undefined {
  if (user === userInfo().username) return userInfo().homedir;
  if (passwd === undefined) {
    passwd = new Map();
    try {
      for (const line of readFileSync("/etc/passwd", "utf8").split("\n")) {
        const fields = line.split(":");
        if (fields.length >= 7) passwd.set(fields[0]!, fields[5]!);
      }
    } catch {
      // No readable user database: every other user's home is unknown.
    }
  }
  return passwd.get(user);
}

/** At most this many files for one pattern; past it the pattern is not judged file by file. */
export const MAX_PATTERN_MATCHES = 2000;

/**
 * The files an absolute shell pattern names now, as bash expands it (segment by segment, no
 * dotfiles for wildcards not starting with `.`); empty when nothing matches (bash then passes
 * the pattern on as written). Undefined past `MAX_PATTERN_MATCHES`.
 */
export function expandPattern(pattern: string): string[] | undefined {
  let found = [pattern.startsWith("/") ? "/" : "."];
  for (const segment of pattern.split("/").filter((s) => s !== "")) {
    if (!hasPattern(segment)) {
      found = found.map((dir) => join(dir, segment.replace(/\\(.)/g, "$1")));
      continue;
    }
    const matches = patternMatcher(segment);
    const next: string[] = [];
    for (const dir of found) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) if (matches(name)) next.push(join(dir, name));
      if (next.length > MAX_PATTERN_MATCHES) return undefined;
    }
    found = next;
    if (found.length === 0) return [];
  }
  return found;
}
