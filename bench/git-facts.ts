/**
 * What the git look-ups cost a decision, one JSON object per figure: listing the files the history
 * holds (`git log -p`, `git show`), the tracked files (`git diff`), and the whole request + decision
 * for everyday git commands, in repositories of several sizes generated here (commits x files per
 * commit), and in the repository of this project when it is one. The index read for submodules
 * runs on every git command. Run: `bun bench/git-facts.ts [--quick]`.
 */
import "./support/isolated-home.ts";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeBash } from "../src/bash/analyze.ts";
import { loadBashParser } from "../src/bash/parser.ts";
import { decide } from "../src/policy/decide.ts";
import { historyPaths } from "../src/policy/git-history.ts";
import { loadPolicy } from "../src/policy/load.ts";
import { buildRequest } from "../src/policy/request.ts";

const quick = process.argv.includes("--quick");
const runs = quick ? 3 : 9;
const ROOT = join(import.meta.dir, "..");

function emit(figure: Record<string, unknown>): void {
  console.log(JSON.stringify(figure));
}

const median = (samples: number[]) => samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
const round = (n: number) => Math.round(n * 100) / 100;

function time(fn: () => unknown): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = Bun.nanoseconds();
    fn();
    samples.push((Bun.nanoseconds() - start) / 1e6);
  }
  return round(median(samples));
}

/** A repository of `commits` commits, each adding `files` new files in its own directory. */
function generated(commits: number, files: number): string {
  const dir = mkdtempSync(join(tmpdir(), "toolrt-bench-git-"));
  const script = `set -e
git init -q -b main r && cd r
for c in $(seq 1 ${commits}); do
  mkdir d$c && for f in $(seq 1 ${files}); do echo $c$f > d$c/f$f.txt; done
  git add d$c && git -c user.email=b@example.com -c user.name=b commit -qm c$c
done`;
  const made = spawnSync("bash", ["-c", script], { cwd: dir, encoding: "utf8" });
  if (made.status !== 0) throw new Error(made.stderr);
  return join(dir, "r");
}

await loadBashParser();
const repositories: [string, string][] = [
  ["generated 50 commits x 20 files", generated(50, 20)],
  ...(quick ? [] : [["generated 2000 commits x 10 files", generated(2000, 10)] as [string, string]]),
  ...(existsSync(join(ROOT, ".git")) ? [["this project", ROOT] as [string, string]] : []),
];
for (const [name, repo] of repositories) {
  const history = historyPaths(repo, "history");
  emit({
    figure: "git history listing",
    repository: name,
    paths: "paths" in history ? history.paths.length : null,
    median_ms: time(() => historyPaths(repo, "history")),
  });
  emit({
    figure: "git tracked listing",
    repository: name,
    median_ms: time(() => historyPaths(repo, "tracked")),
  });
  const policy =
    loadPolicy({ cwd: repo, stateDir: mkdtempSync(join(tmpdir(), "toolrt-bench-state-")) }).policy;
  for (const command of ["git status", "git log --oneline", "git diff", "git log -p", "git show"]) {
    const bash = await analyzeBash(command);
    emit({
      figure: "git request and decision",
      repository: name,
      command,
      median_ms: time(() =>
        decide(buildRequest({ tool: "Bash", input: { command }, cwd: repo, bash }, {}, {}), policy)
      ),
    });
  }
}
