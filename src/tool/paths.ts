/** Path questions every layer (policy, sandbox, tools) must answer the same way. */
import { realpathSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";

/** Is `path` equal to `dir` or below it? Both absolute and normalised. */
export function isInside(path: string, dir: string): boolean {
  if (path === dir) return true;
  return path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

/**
 * The real path of `path` (symlinks followed), also for a file that does not exist yet: the real
 * path of its nearest existing ancestor joined with the missing rest.
 */
export function realPathOfNearestExisting(path: string): string {
  let existing = path;
  while (true) {
    try {
      return resolve(realpathSync(existing), relative(existing, path));
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return path;
      existing = parent;
    }
  }
}
