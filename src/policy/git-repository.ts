/**
 * Which repository a git command uses, looked up on the file system as git does it. Only a
 * workspace root's own `.git` is protected (its config and hooks ask before a write, and the
 * sandbox mounts them read-only); any other repository inside the workspace (a bare repository
 * committed into the project, a nested clone, a submodule's git dir under `.git/modules`) may have
 * been written by anyone, and its configuration runs programs on read-only commands:
 * `core.fsmonitor` on `git status`, `remote.*.uploadpack` on `git ls-remote`, pagers and aliases.
 * A repository above a workspace root (a workspace with no `.git` of its own) lies outside the
 * workspace: it is not the workspace's own either. The workspace's own configuration is the user's,
 * unless it includes (`include.path`, `includeIf`) a file commands may write.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { configIncludes } from "../sandbox/git-includes.ts";
import { isInside } from "../tool/paths.ts";
import { untrustedSubmodule } from "./git-submodules.ts";
import { isProtectedPath } from "./modes.ts";

/**
 * Why git's repository, found from `start` (a resolved real path), cannot be trusted like the
 * workspace's own; undefined when it is a root's own `.git` or lies outside every root (paths
 * outside the workspace are judged as such elsewhere).
 */
export function untrustedRepository(
  start: string,
  roots: readonly string[],
  gitDir = false,
): string | undefined {
  const root = roots.find((r) => isInside(start, r));
  if (root === undefined) return undefined;
  const own = join(root, ".git");
  if (gitDir) return start === own ? ownConfigIncludes(own, roots) : foreign(start);
  // A directory made later in the line may hold a repository made or unpacked there too.
  if (!existsSync(start)) {
    return `git would run in ${start}, which does not exist yet: a repository the command puts there can have configuration that runs programs (core.fsmonitor, aliases, hooks)`;
  }
  // git's discovery: at each level a `.git` entry, then the directory itself as a bare repository,
  // past the root up to `/` (no ceiling is set).
  for (let dir = start;; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) {
      return dir === root
        ? untrustedSubmodule(root) ?? ownConfigIncludes(own, roots)
        : foreign(join(dir, ".git"));
    }
    if (isGitDirectory(dir)) return dir === own ? ownConfigIncludes(own, roots) : foreign(dir);
    if (dir === dirname(dir)) return undefined;
  }
}

/**
 * Why reading objects of the repository git finds from `start` may reach the network: a partial
 * clone (`extensions.partialClone`, a `promisor` remote) fetches missing blobs and trees from its
 * promisor remote on demand, even for `git show` (verified by strace: ssh or HTTP to the remote).
 * Its config is read as text; an include there counts as maybe.
 */
export function partialClone(start: string): string | undefined {
  for (let dir = start;; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const gitDir = existsSync(join(dotGit, "config")) ? dotGit : isGitDirectory(dir) ? dir : undefined;
    if (gitDir !== undefined || existsSync(dotGit)) {
      let config = "";
      try {
        config = readFileSync(join(gitDir ?? dotGit, "config"), "utf8");
      } catch {
        return undefined;
      }
      return /^\s*(?:partialclone\s*=|promisor\s*=\s*(?:true|yes|on|1)\b|\[include)/im.test(config)
        ? "the repository is a partial clone (or includes other configuration): reading its objects may fetch the missing ones from the promisor remote over the network"
        : undefined;
    }
    if (dir === dirname(dir)) return undefined;
  }
}

/**
 * Why the workspace's own repository cannot be trusted: its config includes a file inside a root
 * that is not protected, which a command or an edit may write (`core.fsmonitor` there runs on the
 * next `git status`). Undefined when it includes none (or the config cannot be read).
 */
function ownConfigIncludes(gitDir: string, roots: readonly string[]): string | undefined {
  const writable = configIncludes(gitDir).find((file) =>
    roots.some((r) => isInside(file, r)) && !isProtectedPath(file)
  );
  return writable === undefined
    ? undefined
    : `git would read ${writable}, which ${
      join(gitDir, "config")
    } includes and commands may write: its configuration can run programs (core.fsmonitor, aliases, pagers)`;
}

function foreign(repository: string): string {
  return `git would use the repository at ${repository}, which is not the workspace's own: its configuration can run programs (core.fsmonitor, aliases, pagers)`;
}

/** git's test for a repository directory: `HEAD`, `objects/` and `refs/`. */
function isGitDirectory(dir: string): boolean {
  try {
    return statSync(join(dir, "HEAD")).isFile() && statSync(join(dir, "objects")).isDirectory() &&
      statSync(join(dir, "refs")).isDirectory();
  } catch {
    return false;
  }
}
