/** Resolution of the paths the model passes, and the test of whether they lie in the workspace. */
import { homedir } from "node:os";
import { relative } from "node:path";
import { isInside, realPathOfNearestExisting, resolvePath } from "../../tool/paths.ts";
import type { ToolContext } from "../../tool/types.ts";

/** Absolute path for `input`: `~` expands to the home directory, relative paths start at `cwd`. */
export function resolveToolPath(input: string, cwd: string): string {
  return resolvePath(input, { cwd, home: homedir() }).path;
}

/** `path` relative to `cwd` when it lies below it, otherwise absolute: the shortest honest form. */
export function displayPath(path: string, cwd: string): string {
  return isInside(path, cwd) ? relative(cwd, path) || "." : path;
}

/**
 * True when `path` lies in the working directory or an additional directory, both as written and
 * after following symlinks, so a link inside the workspace that points outside does not count.
 */
export function isInsideWorkspace(path: string, ctx: Pick<ToolContext, "cwd" | "additionalDirs">): boolean {
  const roots = [ctx.cwd, ...ctx.additionalDirs];
  if (!roots.some((root) => isInside(path, root))) return false;
  const real = realPathOfNearestExisting(path);
  return roots.some((root) => isInside(real, realPathOfNearestExisting(root)));
}
