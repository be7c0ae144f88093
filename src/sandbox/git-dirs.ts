/**
 * Every git directory whose hooks and config git on the host may read after a run: the roots' own
 * `.git`, nested repositories, what a `.git` file (`gitdir: ...`) or a `.git` symbolic link points
 * to, a git directory's `commondir`, submodule git directories (`modules/<name>`, nested), worktree
 * git directories (`worktrees/<name>`), and the repository enclosing a root that is a subfolder of
 * one. Reads the disk; the mount plan takes the result as data.
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { configIncludes } from "./git-includes.ts";

/** A `.git` that is not a directory: protected as a file, or checked after the run when a link. */
export interface GitPointer {
  path: string;
  kind: "file" | "symlink";
  /** For a link, what it pointed to before the run (readlink); for a file, its contents. */
  value: string;
}

export interface GitLayout {
  /** Real paths of git directories, each once. */
  gitDirs: string[];
  pointers: GitPointer[];
  /** Files their config includes (`include.path`, `includeIf`): config as much as `config` itself. */
  includes: string[];
}

const MAX_POINTER_BYTES = 4096;
const MAX_MODULE_DEPTH = 8;

/**
 * The layout seen from `.git` entries at `entries` (absolute paths, any kind) and from the
 * repositories enclosing each root.
 */
export function gitLayout(entries: string[], roots: string[]): GitLayout {
  const gitDirs = new Set<string>();
  const pointers: GitPointer[] = [];
  const addGitDir = (dir: string | null) => {
    if (!dir || gitDirs.has(dir)) return;
    gitDirs.add(dir);
    addGitDir(commonDirOf(dir));
    for (const sub of [...subGitDirs(join(dir, "modules"), 0), ...worktreeGitDirs(dir)]) addGitDir(sub);
  };
  const visit = (entry: string) => {
    let st;
    try {
      st = lstatSync(entry);
    } catch {
      return;
    }
    if (st.isDirectory()) return addGitDir(realOrNull(entry));
    if (st.isSymbolicLink()) {
      pointers.push({ path: entry, kind: "symlink", value: readlinkSync(entry) });
      return addGitDir(directoryOrNull(entry));
    }
    if (!st.isFile()) return;
    const value = readPointer(entry);
    pointers.push({ path: entry, kind: "file", value: value ?? "" });
    const target = value?.match(/^gitdir: *(.+?)\s*$/m)?.[1];
    if (target) addGitDir(directoryOrNull(resolve(dirname(entry), target)));
  };
  for (const entry of entries) visit(entry);
  for (const root of roots) {
    for (let dir = dirname(root);; dir = dirname(dir)) {
      visit(join(dir, ".git"));
      if (dir === dirname(dir)) break;
    }
  }
  const includes = [...new Set([...gitDirs].flatMap(configIncludes))].sort();
  return { gitDirs: [...gitDirs].sort(), pointers, includes };
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function directoryOrNull(path: string): string | null {
  const real = realOrNull(path);
  try {
    return real && lstatSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

function readPointer(path: string): string | null {
  try {
    const text = readFileSync(path, "utf8");
    return text.length <= MAX_POINTER_BYTES ? text : null;
  } catch {
    return null;
  }
}

function commonDirOf(gitDir: string): string | null {
  const text = readPointer(join(gitDir, "commondir"));
  return text ? directoryOrNull(resolve(gitDir, text.trim())) : null;
}

/** Submodule git directories below `modules` (a name may hold slashes; a git directory has a HEAD). */
function subGitDirs(dir: string, depth: number): string[] {
  if (depth > MAX_MODULE_DEPTH) return [];
  let names;
  try {
    names = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return names.filter((n) => n.isDirectory()).flatMap((n) => {
    const path = join(dir, n.name);
    return isGitDir(path) ? [path] : subGitDirs(path, depth + 1);
  });
}

function worktreeGitDirs(gitDir: string): string[] {
  try {
    return readdirSync(join(gitDir, "worktrees"), { withFileTypes: true })
      .filter((n) => n.isDirectory()).map((n) => join(gitDir, "worktrees", n.name));
  } catch {
    return [];
  }
}

function isGitDir(path: string): boolean {
  try {
    return lstatSync(join(path, "HEAD")).isFile();
  } catch {
    return false;
  }
}
