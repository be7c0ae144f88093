/**
 * After a run: what the command left at protected paths that could not carry a mount is moved into
 * a quarantine directory in the sandbox's state dir (never deleted), and reported.
 * - a protected path missing at the start (`.bashrc`, `.vscode/`, `.git/hooks` ...) that now exists,
 *   or a symbolic link now on its way;
 * - a `.git` that is a symbolic link and now points elsewhere (the link as it was is put back);
 * - in a git directory that is new after the run (`git init`, `git clone`, a new submodule or
 *   worktree, or whatever a new `.git` file or link points to inside the roots): hooks other than git's `*.sample` files, a config with keys outside
 *   `NEW_REPO_CONFIG_KEYS`, a `commondir` that is not a worktree's own.
 * Every move goes through a descriptor pinned on the parent directory, so a directory swapped for a
 * symbolic link meanwhile cannot send a host file into quarantine. A run's moves are then packed
 * into one `<run>.tar.gz` (`tar` keeps modes and links): nothing quarantined stays a live hook
 * directory, repository or symbolic link on the host, and a killed command's big tree stays small.
 */
import {
  chmodSync,
  closeSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { isInside } from "../tool/paths.ts";
import type { GitPointer } from "./git-dirs.ts";
import type { AbsentPath } from "./mount-plan.ts";
import { entryKind, resolveReal } from "./paths.ts";
import { pinPath, throughFd } from "./pin.ts";

export interface Quarantined {
  /** Where the command left it. */
  path: string;
  /**
   * Where it is now: `<archive>.tar.gz:<path in it>`, or a directory when it could not be packed;
   * null when it could not be moved (then `why` says so).
   */
  movedTo: string | null;
  why: string;
}

/**
 * Config keys a freshly made repository may carry (what `git init`, `git clone`, `git submodule` and
 * `git worktree` write, plus identity): none names a program to run. Anything else (core.fsmonitor,
 * core.hooksPath, core.pager, aliases, filters, includes, credential helpers ...) sends the config
 * to quarantine. Lower-case, as `git config --list` prints section and key names; `*` is one
 * subsection name.
 */
export const NEW_REPO_CONFIG_KEYS: readonly string[] = [
  "core.repositoryformatversion",
  "core.filemode",
  "core.bare",
  "core.logallrefupdates",
  "core.ignorecase",
  "core.precomposeunicode",
  "core.symlinks",
  "core.sparsecheckout",
  "extensions.objectformat",
  "extensions.worktreeconfig",
  "init.defaultbranch",
  "user.name",
  "user.email",
  "remote.*.url",
  "remote.*.fetch",
  "branch.*.remote",
  "branch.*.merge",
  "submodule.*.url",
  "submodule.*.active",
];

export interface AfterRunInput {
  roots: string[];
  absent: AbsentPath[];
  /** `.git` pointers at the start (links are checked; files were read-only). */
  pointers: GitPointer[];
  /** Git directories at the start, and now (`gitLayout`). */
  gitDirsBefore: Set<string>;
  gitDirsAfter: string[];
  /** `<quarantineDir>.tar.gz` is made when something had to be moved. */
  quarantineDir: string;
}

export function quarantineAfterRun(input: AfterRunInput): Quarantined[] {
  const moved: Quarantined[] = [];
  const rootOf = (path: string) => input.roots.find((r) => isInside(path, r));
  const move = (path: string, why: string) => moved.push(moveToQuarantine(path, input.quarantineDir, why));

  for (const a of input.absent) {
    const found = firstCreated(a.root, a.path);
    if (found) move(found, `${a.why}: ${relative(a.root, a.path)} did not exist before the run`);
  }
  for (const pointer of input.pointers) {
    if (pointer.kind !== "symlink" || !rootOf(pointer.path)) continue;
    if (readlinkOrNull(pointer.path) === pointer.value) continue;
    if (entryKind(pointer.path) !== "missing") move(pointer.path, "a .git link changed during the run");
    try {
      symlinkSync(pointer.value, pointer.path);
    } catch {
      // something new is there and could not be moved: reported above
    }
  }
  for (const gitDir of input.gitDirsAfter) {
    if (input.gitDirsBefore.has(gitDir) || !rootOf(gitDir)) continue;
    for (const [path, why] of unsafeInNewGitDir(gitDir, input.roots)) move(path, why);
  }
  return pack(moved, input.quarantineDir);
}

/** Packs what was moved into `<dir>.tar.gz`; keeps the directory when tar is missing or fails. */
function pack(moved: Quarantined[], dir: string): Quarantined[] {
  if (!moved.some((q) => q.movedTo)) return moved;
  const archive = `${dir}.tar.gz`;
  const tar = Bun.which("tar");
  const packed = tar !== null &&
    Bun.spawnSync([tar, "-czf", archive, "-C", dir, "."], { stdout: "ignore", stderr: "ignore" }).exitCode ===
      0;
  if (!packed) return moved;
  rmSync(dir, { recursive: true, force: true });
  return moved.map((q) => (q.movedTo ? { ...q, movedTo: `${archive}:.${q.path}` } : q));
}

/** The first component of `path` below `root` that the run created (a link on the way, or `path`). */
function firstCreated(root: string, path: string): string | null {
  const parts = relative(root, path).split("/");
  for (let i = 0; i < parts.length; i++) {
    const at = join(root, ...parts.slice(0, i + 1));
    const kind = entryKind(at);
    if (kind === "missing") return null;
    if (kind === "symlink" || i === parts.length - 1) return at;
    if (kind !== "dir") return null;
  }
  return null;
}

/** What a new git directory holds that would run something on the host. */
function unsafeInNewGitDir(gitDir: string, roots: string[]): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const hooks = join(gitDir, "hooks");
  const hooksKind = entryKind(hooks);
  if (hooksKind === "dir") {
    const active = readdirSync(hooks).filter((n) =>
      !n.endsWith(".sample") || entryKind(join(hooks, n)) !== "file"
    );
    if (active.length) {
      found.push([hooks, `hooks of a repository created during the run (${active.join(", ")})`]);
    }
  } else if (hooksKind !== "missing") {
    found.push([hooks, "hooks of a repository created during the run"]);
  }
  for (const name of ["config", "config.worktree"]) {
    const path = join(gitDir, name);
    if (entryKind(path) === "missing") continue;
    const entries = configEntries(path);
    const unsafe = entries === null
      ? ["(unreadable)"]
      : entries.filter(([key, value]) => !allowedKey(key) && !ownWorktree(key, value, gitDir, roots))
        .map(([key]) => key);
    if (unsafe.length) {
      found.push([
        path,
        `config of a repository created during the run sets ${[...new Set(unsafe)].join(", ")}`,
      ]);
    }
  }
  const commondir = join(gitDir, "commondir");
  if (entryKind(commondir) !== "missing" && !isOwnWorktreeCommonDir(gitDir, commondir)) {
    found.push([commondir, "commondir of a repository created during the run"]);
  }
  return found;
}

/** A worktree's git directory `<X>/worktrees/<name>` whose commondir is `<X>`. */
function isOwnWorktreeCommonDir(gitDir: string, commondir: string): boolean {
  if (basename(dirname(gitDir)) !== "worktrees" || entryKind(commondir) !== "file") return false;
  try {
    const target = realpathSync(resolve(gitDir, readFileSync(commondir, "utf8").trim()));
    return target === dirname(dirname(gitDir));
  } catch {
    return false;
  }
}

/** `core.worktree` (a submodule's checkout) inside the writable roots: git writes nowhere else. */
function ownWorktree(key: string, value: string, gitDir: string, roots: string[]): boolean {
  if (key !== "core.worktree") return false;
  const target = resolveReal(resolve(gitDir, value));
  return target !== null && roots.some((r) => isInside(target, r));
}

/** [key, value] pairs of a config file as git reads it, without includes; null when git cannot read it. */
function configEntries(path: string): Array<[string, string]> | null {
  if (entryKind(path) !== "file") return null;
  const git = Bun.which("git");
  if (!git) return null;
  const run = Bun.spawnSync([git, "config", "--no-includes", "--file", path, "--null", "--list"], {
    stdout: "pipe",
    stderr: "ignore",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent" },
  });
  if (run.exitCode !== 0) return null;
  return run.stdout.toString().split("\0").filter(Boolean).map((item) => {
    const newline = item.indexOf("\n");
    return newline < 0
      ? [item.toLowerCase(), ""]
      : [item.slice(0, newline).toLowerCase(), item.slice(newline + 1)];
  });
}

function allowedKey(key: string): boolean {
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  const shape = first === last ? key : `${key.slice(0, first)}.*${key.slice(last)}`;
  return NEW_REPO_CONFIG_KEYS.includes(shape);
}

function moveToQuarantine(path: string, quarantineDir: string, why: string): Quarantined {
  const dest = join(quarantineDir, path);
  let fd: number | null = null;
  try {
    fd = pinPath(dirname(path), { directory: true });
    mkdirSync(dirname(dest), { recursive: true, mode: 0o700 });
    chmodSync(quarantineDir, 0o700);
    const source = throughFd(fd, basename(path));
    try {
      renameSync(source, dest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      cpSync(source, dest, { recursive: true, verbatimSymlinks: true, errorOnExist: true });
      rmSync(source, { recursive: true, force: true });
    }
    return { path, movedTo: dest, why };
  } catch (error) {
    return { path, movedTo: null, why: `${why}; could not be moved: ${(error as Error).message}` };
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function readlinkOrNull(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

/** One line per quarantined path, for the tool result, the audit log and stderr. */
export function describeQuarantined(q: Quarantined): string {
  return q.movedTo
    ? `${q.path} was moved to ${q.movedTo} (${q.why}); look at it (tar -tzvf) before putting it back`
    : `${q.path} is left in place (${q.why}); check it before running git or a shell there`;
}
