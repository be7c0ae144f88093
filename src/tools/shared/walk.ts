/**
 * Depth-first walk over the files below a directory, in name order so results are stable. Symlinked
 * directories are never entered (no cycles, no escape from the workspace).
 */
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { IgnoreRules } from "./gitignore.ts";

export interface WalkOptions {
  /** Directory names never entered. */
  skipDirNames: ReadonlySet<string>;
  /** Honour `.gitignore` files in the root, its parents and every directory walked. */
  gitignore: boolean;
  /** Yield symlinks that point at files (else symlinks are skipped, as `rg` does). */
  symlinkedFiles: boolean;
  /** Files for which this is true are yielded even when `.gitignore` names them. */
  keepIgnoredFile?: (path: string) => boolean;
  signal?: AbortSignal;
}

export async function* walkFiles(root: string, opts: WalkOptions): AsyncGenerator<string> {
  yield* walkDir(root, opts.gitignore ? IgnoreRules.forRoot(root) : IgnoreRules.empty(), opts);
}

async function* walkDir(dir: string, rules: IgnoreRules, opts: WalkOptions): AsyncGenerator<string> {
  opts.signal?.throwIfAborted();
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return; // unreadable directories are skipped, as rg and find do
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (opts.skipDirNames.has(entry.name) || rules.ignores(path, true)) continue;
      yield* walkDir(path, opts.gitignore ? rules.enter(path) : rules, opts);
    } else if (entry.isFile() || (entry.isSymbolicLink() && opts.symlinkedFiles && (await isFile(path)))) {
      if (!rules.ignores(path, false) || opts.keepIgnoredFile?.(path)) yield path;
    }
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
