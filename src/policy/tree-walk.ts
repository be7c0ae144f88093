/**
 * What a tree-walking command (`grep -r`, `rg`, `find -L`, ...) meets below a directory, read from
 * the file system when the command is checked: the files it reads, and the links it follows.
 * Policy then judges each as if the command named it (`.env` below asks like `cat .env`).
 */
import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Past this many entries a tree is not judged file by file: the command asks. */
export const MAX_TREE_ENTRIES = 5000;

export interface TreeFound {
  /** Regular files below the directory (when the command reads contents). */
  files: string[];
  /** Symbolic links below it that the command follows. */
  links: string[];
}

/**
 * The files and followed links below `dir` (its own path first resolved by the caller); an empty
 * result for a file or a missing path, undefined past `MAX_TREE_ENTRIES`; hidden entries only when
 * the command enters them. Git's own database
 * (`.git`) is passed over: nothing in it is a secrets file by name.
 */
export function walkTree(dir: string, follow: boolean, hidden = true): TreeFound | undefined {
  const found: TreeFound = { files: [], links: [] };
  try {
    if (!statSync(dir).isDirectory()) return found;
  } catch {
    return found;
  }
  let seen = 0;
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (++seen > MAX_TREE_ENTRIES) return undefined;
      if (!hidden && entry.name.startsWith(".")) continue;
      const path = join(current, entry.name);
      if (entry.isSymbolicLink()) {
        if (follow) found.links.push(path);
      } else if (entry.isDirectory()) {
        if (entry.name !== ".git") pending.push(path);
      } else if (entry.isFile()) {
        found.files.push(path);
      }
    }
  }
  return found;
}
