/**
 * The files a git command that prints stored content may print (`bash/git-history.ts`): every path
 * any commit, reflog entry or the index holds (`git rev-list --all --reflog --indexed-objects
 * --objects`), or the tracked files (`git ls-files`). Read deny and ask rules are matched against
 * them (`decide.ts`), so `git log -p` asks when the history holds a `.env` once committed. Reading
 * the object database runs no configured program. A repository too large to list in the time
 * allowed is reported as unknown, which asks (fail closed).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import type { HistoryRead } from "../bash/git-history.ts";

/** How long one listing may take before the history counts as unknown. */
export const HISTORY_TIMEOUT_MS = 3000;
/** Listings larger than this count as unknown (matching them would take longer than asking). */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

export type HistoryPaths = { paths: string[] } | { none: true } | { unknown: string };

export type GitRunner = (
  dir: string,
  args: string[],
) => { status: number | null; stdout: string; error?: string };

/** Absolute paths of the files `kind` covers in the repository git finds from `dir`. */
export function historyPaths(dir: string, kind: HistoryRead, run: GitRunner = runGit): HistoryPaths {
  const top = run(dir, ["rev-parse", "--show-toplevel"]);
  if (top.error) return { unknown: top.error };
  // Outside a repository git prints nothing stored.
  if (top.status !== 0) {
    return /not a git repository/i.test(top.stdout) ? { none: true } : { unknown: top.stdout.trim() };
  }
  const root = top.stdout.trim();
  const list = kind === "history"
    ? run(dir, ["rev-list", "--all", "--reflog", "--indexed-objects", "--objects"])
    : run(dir, ["ls-files", "-z", "--full-name"]);
  if (list.error) return { unknown: list.error };
  if (list.status !== 0) return { unknown: list.stdout.trim() || `git exited with ${list.status}` };
  const names = kind === "history"
    ? list.stdout.split("\n").flatMap((line) => {
      const space = line.indexOf(" ");
      return space === -1 || space === line.length - 1 ? [] : [line.slice(space + 1)];
    })
    : list.stdout.split("\0").filter((name) => name !== "");
  return { paths: [...new Set(names)].map((name) => join(root, name)) };
}

function runGit(dir: string, args: string[]): ReturnType<GitRunner> {
  const result = spawnSync("git", ["-C", dir, ...args], {
    encoding: "utf8",
    timeout: HISTORY_TIMEOUT_MS,
    maxBuffer: MAX_OUTPUT_BYTES,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" },
  });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    const why = code === "ETIMEDOUT"
      ? `the repository's history could not be listed within ${HISTORY_TIMEOUT_MS / 1000} s`
      : code === "ENOBUFS"
      ? "the repository's history is too large to list"
      : `git could not be run (${result.error.message})`;
    return { status: null, stdout: "", error: why };
  }
  return { status: result.status, stdout: result.status === 0 ? result.stdout : result.stderr };
}
