/** Resolution of the paths the model passes, and the test of whether they lie in the workspace. */
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import type { ToolContext } from "../../tool/types.ts";

/** Absolute path for `input`: `~` expands to the home directory, relative paths start at `cwd`. */
export function resolveToolPath(input: string, cwd: string): string {
  if (input === "~" || input.startsWith("~/")) return resolve(homedir(), input.slice(2));
  return resolve(cwd, input);
}

/** `path` relative to `cwd` when it lies below it, otherwise absolute: the shortest honest form. */
export function displayPath(path: string, cwd: string): string {
  return isWithin(path, cwd) ? relative(cwd, path) || "." : path;
}

function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * True when `path` lies in the working directory or an additional directory, both as written and
 * after following symlinks, so a link inside the workspace that points outside does not count.
 */
export function isInsideWorkspace(path: string, ctx: Pick<ToolContext, "cwd" | "additionalDirs">): boolean {
  const roots = [ctx.cwd, ...ctx.additionalDirs];
  if (!roots.some((root) => isWithin(path, root))) return false;
  const real = realpathOfNearestExisting(path);
  return roots.some((root) => isWithin(real, realpathOfNearestExisting(root)));
}

/** The real path of `path`, or of its nearest existing ancestor joined with the missing rest. */
function realpathOfNearestExisting(path: string): string {
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
