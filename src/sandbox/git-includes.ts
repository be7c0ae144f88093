/**
 * The files a repository's config includes (`[include] path`, `[includeIf "..."] path`): git reads
 * them as config, so `core.fsmonitor` there runs on the next `git status` like one in `.git/config`.
 * The sandbox protects those inside a writable root as it protects `.git/config`; policy reads them
 * to tell whether the workspace's own repository can be trusted.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Nested includes followed at most this deep (git's own limit is 10). */
const MAX_INCLUDE_DEPTH = 10;

/** The `path` values of the `[include]` and `[includeIf "..."]` sections, resolved against `baseDir` as git does. */
export function includedFiles(config: string, baseDir: string): string[] {
  const files: string[] = [];
  let inInclude = false;
  for (const line of config.split("\n")) {
    const section = /^\s*\[\s*([A-Za-z][\w.-]*)/.exec(line);
    if (section) inInclude = /^include(?:if)?$/i.test(section[1]!);
    const value = /^\s*(?:\[[^\]]*\]\s*)?path\s*=\s*(.*?)\s*$/i.exec(line)?.[1];
    if (!inInclude || value === undefined) continue;
    const path = value.replace(/^"(.*)"$/, "$1");
    // `~/` is the user's home, outside any workspace a command writes without asking.
    if (path !== "" && !path.startsWith("~")) files.push(resolve(baseDir, path));
  }
  return files;
}

/**
 * Every file the config of the git directory `gitDir` includes (`config` and `config.worktree`),
 * nested includes too, each relative to the file that names it. Unreadable files include nothing.
 */
export function configIncludes(gitDir: string): string[] {
  const found = new Set<string>();
  const visit = (file: string, depth: number) => {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return;
    }
    for (const included of includedFiles(text, dirname(file))) {
      if (found.has(included)) continue;
      found.add(included);
      if (depth < MAX_INCLUDE_DEPTH) visit(included, depth + 1);
    }
  };
  for (const name of ["config", "config.worktree"]) visit(join(gitDir, name), 1);
  return [...found].sort();
}
