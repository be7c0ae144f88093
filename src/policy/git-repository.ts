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
import { dirname, join, resolve } from "node:path";
import { configIncludes } from "../sandbox/git-includes.ts";
import { isInside } from "../tool/paths.ts";
import { untrustedSubmodule } from "./git-submodules.ts";
import { isProtectedPath } from "./modes.ts";
import { gitConfigList } from "./git-credentials.ts";
import { programOnRead } from "./repo-programs.ts";

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
  if (root === undefined) return outsideRepository(start, gitDir);
  const own = join(root, ".git");
  if (gitDir) return start === own ? ownConfigRisk(own, roots) : foreign(start);
  // A directory made later in the line may hold a repository made or unpacked there too.
  if (!existsSync(start)) {
    return `git would run in ${start}, which does not exist yet: a repository the command puts there can have configuration that runs programs (core.fsmonitor, aliases, hooks)`;
  }
  // git's discovery: at each level a `.git` entry, then the directory itself as a bare repository,
  // past the root up to `/` (no ceiling is set).
  for (let dir = start;; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) {
      return dir === root
        ? untrustedSubmodule(root) ?? ownConfigRisk(own, roots)
        : foreign(join(dir, ".git"));
    }
    if (isGitDirectory(dir)) return dir === own ? ownConfigRisk(own, roots) : foreign(dir);
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
 * Why the workspace's own repository cannot be trusted: its config names a program git runs on
 * read-only commands (`repo-programs.ts`), or includes a file inside a root that is not protected,
 * which a command or an edit may write (`core.fsmonitor` there runs on the next `git status`).
 * Undefined when neither (or there is no config).
 */
function ownConfigRisk(gitDir: string, roots: readonly string[]): string | undefined {
  try {
    readFileSync(join(gitDir, "config"));
  } catch {
    return undefined; // no config (or none git could read either)
  }
  const runs = ownPrograms(join(gitDir, "config"));
  if (runs !== undefined) return runs;
  const writable = configIncludes(gitDir).find((file) =>
    roots.some((r) => isInside(file, r)) && !isProtectedPath(file)
  );
  return writable === undefined
    ? undefined
    : `git would read ${writable}, which ${
      join(gitDir, "config")
    } includes and commands may write: its configuration can run programs (core.fsmonitor, aliases, pagers)`;
}

/**
 * A repository outside every root is read as outside the workspace (an allow rule may approve that),
 * but its config is nobody's word: one that names a program git runs on read-only commands asks as
 * the workspace's own does. A `.git` file (a worktree's or submodule's link) is followed to its
 * directory; one that cannot be read counts as naming a program.
 */
function outsideRepository(start: string, gitDir: boolean): string | undefined {
  const configOf = (dir: string) => ownPrograms(join(dir, "config"), "a repository outside the workspace");
  if (gitDir) return configOf(start);
  for (let dir = start;; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    if (existsSync(dotGit)) {
      if (statSync(dotGit).isDirectory()) return configOf(dotGit);
      try {
        const target = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"))?.[1];
        if (target === undefined) throw new Error("no gitdir: line");
        const linked = resolve(dir, target);
        const common = existsSync(join(linked, "commondir"))
          ? resolve(linked, readFileSync(join(linked, "commondir"), "utf8").trim())
          : linked;
        return configOf(common);
      } catch (e) {
        return `git would use the repository ${dotGit} links to, outside the workspace, and where it is cannot be told (${
          (e as Error).message
        }): its configuration may run programs`;
      }
    }
    if (isGitDirectory(dir)) return configOf(dir);
    if (dir === dirname(dir)) return undefined;
  }
}

/** Parsed configurations by file, kept while the file's size and time stay the same (the resident hook). */
const parsed = new Map<string, { stamp: string; why: string | undefined }>();

/**
 * The program the repository's own config file names in a key git runs on read-only commands, read
 * by git itself (quoting, sections and continuations as git reads them; includes are judged apart).
 * A file git cannot read asks too.
 */
function ownPrograms(config: string, whose = "the workspace's repository"): string | undefined {
  let stamp: string;
  try {
    const info = statSync(config);
    stamp = `${info.size}:${info.mtimeMs}:${info.ino}`;
  } catch {
    return undefined;
  }
  const key = `${whose}\0${config}`;
  const cached = parsed.get(key);
  if (cached?.stamp === stamp) return cached.why;
  let why: string | undefined;
  try {
    const found = programOnRead(gitConfigList("/", false, ["--file", config]));
    why = found === undefined
      ? undefined
      : `the config of ${whose} (${config}) names a program git runs on read-only commands: ${found}`;
  } catch (e) {
    why = `git cannot read the config of ${whose} (${config}), which may name programs it runs (${
      (e as Error).message
    })`;
  }
  parsed.set(key, { stamp, why });
  return why;
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
