/**
 * The work-loss table: git commands that throw away work no commit holds (uncommitted changes,
 * untracked files, stashes, unmerged branches, remote history). The shipped default policy asks
 * before each one by the entry's id (`"when": {"in": [ID, {"var": "command.workLoss"}]}`), so
 * a broad allow such as `Bash(git:*)` does not cover them and a person can turn one off by id.
 *
 * Entries see git as git reads its words: the program by any path or case (`/usr/bin/GIT`),
 * wrappers removed (`sudo`, `env`, `timeout`, `bash -c`), global options skipped (`-C`, `-c`,
 * `--git-dir=`), and the subcommand's options resolved by its own parse-options table (`--har` is
 * `--hard`, `-fd` is `-f -d`, `--no-force` cancels `-f`, an ambiguous `--forc` counts as every
 * option it could be). Each entry is reviewed data with examples that must ask and must not.
 */
import { factOf } from "./catastrophic.ts";
import type { Judged } from "./command.ts";
import { resolveGit } from "./git.ts";
import { type PatchApply, readPatchApply } from "./patch-apply.ts";
import { judgeWithSpec } from "./spec-parse.ts";
import { GIT } from "./specs/git.ts";
import type { WorkLoss } from "./types.ts";

/** One git command as the entries read it. */
export interface GitReading {
  /** The subcommands, lower-cased (`["stash", "drop"]`). */
  subcommands: string[];
  /** Is one of these options in effect (given, and not cancelled by a later `--no-` form)? */
  has(...spellings: string[]): boolean;
  /** The operands, and whether `--` came before each. */
  operands: { text: string; afterDashDash: boolean }[];
}

export interface WorkLossEntry {
  /** Stable id: the id of the default policy rule that asks about it. */
  id: string;
  /** What the command loses, shown to the person asked. */
  name: string;
  /** Does this git command lose work? */
  loses?: (git: GitReading) => boolean;
  /** Does this patch application (`git apply`, `patch`) lose work? */
  applies?: (patch: PatchApply) => boolean;
  /** A word that makes it lose work if it names a file or directory (judged when deciding). */
  ifPath?: (git: GitReading) => string | undefined;
  /** Commands that must be found, and commands close to them that must not. */
  examples: { found: readonly string[]; spared: readonly string[] };
}

/**
 * A single `git checkout` operand that can only be a path: no branch name starts with `/` or `:`,
 * holds a glob character or a backslash, ends with `/`, or has a component starting with `.`
 * (`git check-ref-format`). Any other single operand is a branch when one has that name.
 */
const pathOnly = (text: string) =>
  /^[/:]|[*?[\\]|\/$/.test(text) || text.split("/").some((c) => c.startsWith("."));

/** Commands that stop on a conflict and can be aborted back to where they began. */
const SEQUENCES = new Set(["merge", "rebase", "cherry-pick", "revert", "am"]);

/** push and its plumbing. */
const PUSHES = new Set(["push", "send-pack", "http-push"]);

export const WORK_LOSS: readonly WorkLossEntry[] = [
  {
    id: "git-reset-hard",
    name: "git reset --hard (or read-tree -u, or aborting a merge or rebase) discards uncommitted changes",
    // `--merge` resets the index and every file whose change is staged: that change is lost too.
    // `read-tree --reset -u` is the plumbing under it; `-m -u` too once the change is staged. An
    // abort of a merge, rebase, cherry-pick, revert or am resets hard to where it began, and the
    // conflict resolutions and edits made meanwhile with it (verified, git 2.39).
    loses: (g) =>
      (g.subcommands[0] === "reset" && g.has("--hard", "--merge")) ||
      (g.subcommands[0] === "read-tree" && g.has("--reset", "-m") && g.has("-u")) ||
      (SEQUENCES.has(g.subcommands[0]!) && g.has("--abort")),
    examples: {
      found: [
        "git reset --hard",
        "git reset --hard HEAD~1",
        "git reset --har",
        "git reset '--hard'",
        "git -C sub reset --hard",
        "git -c core.x=y reset --hard",
        "git --git-dir=.git reset --hard",
        "/usr/bin/git reset --hard",
        "GIT reset --hard",
        "sudo git reset --hard",
        "env A=1 git reset --hard",
        "timeout 5 git reset --hard",
        "command git reset --hard",
        "bash -c 'git reset --hard'",
        "git reset --soft HEAD~1 --hard",
        `git "re"set --h"ard"`,
        "X=--hard; git reset $X",
        "time git reset --hard",
        "echo --hard | xargs git reset",
        "git --no-pager -P reset --hard &",
        "git reset --merge",
        "git reset --mer HEAD~1",
        "git read-tree -u --reset HEAD",
        "git read-tree --res -u HEAD",
        "git read-tree --reset -u -v HEAD~1",
        "git read-tree -m -u HEAD",
        "git rebase --abort",
        "git rebase --abo",
        "git merge --abort",
        "git cherry-pick --abort",
        "git revert --abort",
        "git am --abort",
      ],
      spared: [
        "git reset --soft HEAD~1",
        "git reset",
        "git reset HEAD file",
        "git reset --keep HEAD~1",
        "git read-tree HEAD",
        "git read-tree -m HEAD",
        "git read-tree --reset HEAD",
        "git rebase --continue",
        "git merge --continue",
        "git cherry-pick --quit",
      ],
    },
  },
  {
    id: "git-checkout-discard",
    name: "git checkout of paths or with --force discards uncommitted changes",
    loses: (g) => {
      // checkout-index overwrites files that exist only with --force (verified, git 2.39).
      if (g.subcommands[0] === "checkout-index") return g.has("--force");
      if (g.subcommands[0] !== "checkout") return false;
      // `--ours`/`--theirs` only check out paths: from the index when the path is not in conflict.
      if (g.has("--force", "--patch", "--pathspec-from-file", "--ours", "--theirs")) return true;
      const ops = g.operands;
      if (ops.some((o) => o.afterDashDash)) return true;
      // `git checkout REF PATH...` restores paths; one operand is a branch unless it must be a path.
      return ops.length > 1 || (ops.length === 1 && pathOnly(ops[0]!.text));
    },
    // `git checkout a.txt` with no branch a.txt restores the file (verified, git 2.39).
    ifPath: (g) => {
      const ops = g.operands;
      return g.subcommands[0] === "checkout" && ops.length === 1 && ops[0]!.text !== "-"
        ? ops[0]!.text
        : undefined;
    },
    examples: {
      found: [
        "git checkout -- .",
        "git checkout -- src/main.ts",
        "git checkout HEAD -- src",
        "git checkout main src/main.ts",
        "git checkout .",
        "git checkout ./src",
        "git checkout '*.ts'",
        "git checkout .env",
        "git checkout src/",
        "git checkout -f main",
        "git checkout --force main",
        "git checkout --forc main",
        "git checkout -qf main",
        "git checkout -p",
        "git -C sub checkout -- .",
        "git checkout --ours a.txt",
        "git checkout --theirs a.txt",
        "git checkout-index -f -a",
        "git checkout-index --f --a",
        "git checkout-index --force a.txt",
        "git checkout-index -fu -- a.txt",
      ],
      spared: [
        "git checkout-index -a",
        "git checkout-index a.txt",
        "git checkout-index --prefix=out/ -a",
        "git checkout -b new",
        "git checkout main",
        "git checkout -",
        "git checkout -B topic origin/topic",
      ],
    },
  },
  {
    id: "git-restore-worktree",
    name: "git restore of the working tree discards uncommitted changes",
    loses: (g) => g.subcommands[0] === "restore" && (g.has("--worktree") || !g.has("--staged")),
    examples: {
      found: [
        "git restore src/main.ts",
        "git restore .",
        "git restore --source=HEAD~2 src",
        "git restore --staged --worktree f",
        "git restore -SW f",
        "git restore --wor --sta f",
      ],
      spared: ["git restore --staged f", "git restore -S f", "git restore --stag f"],
    },
  },
  {
    id: "git-switch-discard",
    name: "git switch --discard-changes throws away uncommitted changes",
    loses: (g) => g.subcommands[0] === "switch" && g.has("--discard-changes", "--force"),
    examples: {
      found: ["git switch -f main", "git switch --discard-changes main", "git switch --disc main"],
      spared: ["git switch main", "git switch -c new"],
    },
  },
  {
    id: "git-clean",
    name: "git clean deletes untracked files",
    // Without -f git refuses only while clean.requireForce is true: anything but a dry run may delete.
    loses: (g) => g.subcommands[0] === "clean" && !g.has("--dry-run"),
    examples: {
      found: [
        "git clean -f",
        "git clean -fd",
        "git clean -df",
        "git clean -xdf",
        "git clean --force",
        "git clean --for -d",
      ],
      spared: ["git clean -n", "git clean -nd", "git clean --dry-run -f", "git clean -fn"],
    },
  },
  {
    id: "git-rm-force",
    name: "git rm --force deletes files with uncommitted changes",
    loses: (g) => g.subcommands[0] === "rm" && g.has("--force") && !g.has("--cached", "--dry-run"),
    examples: {
      found: ["git rm -f a.txt", "git rm -rf src", "git rm --forc a.txt", "git rm -r --force -- src"],
      spared: ["git rm a.txt", "git rm -r src", "git rm --cached -f a.txt", "git rm -nf a.txt"],
    },
  },
  {
    id: "git-worktree-remove-force",
    name: "git worktree remove --force deletes a worktree with uncommitted changes",
    loses: (g) => g.subcommands[0] === "worktree" && g.subcommands[1] === "remove" && g.has("--force"),
    examples: {
      found: [
        "git worktree remove -f ../wt",
        "git worktree remove --force ../wt",
        "git worktree remove --for ../wt",
      ],
      spared: ["git worktree remove ../wt", "git worktree list"],
    },
  },
  {
    id: "git-push-force",
    name: "git push --force overwrites remote history",
    // Deleting a remote branch (`--delete`, `:branch`) throws its history away as surely. send-pack
    // and http-push are push's plumbing (`http-push -d`/`-D` delete remote branches).
    loses: (g) =>
      PUSHES.has(g.subcommands[0]!) &&
      (g.has("--force", "--mirror", "--delete", "-d", "-D") ||
        g.operands.some((o, i) => o.text.startsWith("+") || (i > 0 && /^:./.test(o.text)))),
    examples: {
      found: [
        "git push --force origin main",
        "git push -f",
        "git push -uf origin main",
        "git push --forc origin main",
        "git push origin +main",
        "git push origin +HEAD:main",
        "git push --mirror backup",
        "git push --force-with-lease --force origin main",
        "git -C repo push -f",
        "git push origin :main",
        "git push -d origin main",
        "git push --delete origin main",
        "git push --del origin main",
        "git send-pack --force origin +w:main",
        "git send-pack origin +w:main",
        "git send-pack --mirror ../r.git",
        "git send-pack --forc ../r.git main",
        "git http-push --force https://h.example/r.git main",
        "git http-push -D https://h.example/r.git topic",
      ],
      spared: [
        "git push origin main",
        "git push --force-with-lease origin main",
        "git push --force-with-lease=main:abc origin main",
        "git push --force-if-includes --force-with-lease",
        "git push --force --no-force origin main",
        "git send-pack origin main",
        "git http-push https://h.example/r.git main",
      ],
    },
  },
  {
    id: "git-stash-drop",
    name: "git stash drop or clear deletes stashed changes",
    // A stash is a reflog entry of refs/stash: deleting or expiring those entries drops it.
    loses: (g) =>
      (g.subcommands[0] === "stash" && (g.subcommands[1] === "drop" || g.subcommands[1] === "clear")) ||
      (g.subcommands[0] === "reflog" && g.subcommands[1] === "delete" &&
        g.operands.some((o) => /^(?:refs\/)?stash(?:@|$)/.test(o.text))) ||
      (g.subcommands[0] === "reflog" && g.subcommands[1] === "expire" &&
        (g.has("--all") || g.operands.some((o) => /^(?:refs\/)?stash(?:@|$)/.test(o.text)))),
    examples: {
      found: [
        "git stash drop",
        "git stash drop stash@{1}",
        "git stash clear",
        "git -C sub stash clear",
        "git reflog delete refs/stash@{0}",
        "git reflog delete stash@{1}",
        "git reflog expire --expire=now --all",
        "git reflog expire --expire-unreachable=now refs/stash",
      ],
      spared: [
        "git stash list",
        "git stash",
        "git stash show -p",
        "git stash pop",
        "git reflog delete HEAD@{1}",
        "git reflog expire --expire=90.days refs/heads/main",
      ],
    },
  },
  {
    id: "git-branch-force-delete",
    name: "git branch -D, -M or -C deletes or overwrites a branch whether or not it is merged",
    // `-M x y` and `-C x y` replace an existing y, whose own commits then belong to no branch
    // (verified, git 2.39); `update-ref -d` deletes a branch with no check at all.
    loses: (g) =>
      (g.subcommands[0] === "branch" &&
        (g.has("-D", "-M", "-C") || (g.has("--delete", "--move", "--copy") && g.has("--force")))) ||
      (g.subcommands[0] === "update-ref" && g.has("-d", "--stdin")),
    examples: {
      found: [
        "git branch -D topic",
        "git branch -Dq topic",
        "git branch --delete --force topic",
        "git branch -d -f topic",
        "git branch -df topic",
        "git branch --del --forc topic",
        "git branch -M x y",
        "git branch -C x y",
        "git branch -m -f x y",
        "git branch --move --force x y",
        "git branch --cop --forc x y",
        "git update-ref -d refs/heads/topic",
        "echo 'delete refs/heads/topic' | git update-ref --stdin",
      ],
      spared: [
        "git branch -d topic",
        "git branch --delete topic",
        "git branch -f topic HEAD",
        "git branch",
        "git branch -m x y",
        "git branch -c x y",
        "git update-ref refs/heads/new HEAD",
      ],
    },
  },
  {
    id: "git-apply-reverse",
    name:
      "applying a patch in reverse (git apply -R, patch -R) reverts the changes it names: the work tree's own diff reversed discards uncommitted changes",
    // What the patch holds is not known before it runs (`git diff | git apply -R` is exactly a
    // discard; verified, git 2.39): any reverse application that writes asks like the discard
    // entries. patch's --batch reverses a patch that looks already applied, which the work tree's
    // own diff is (`git diff | patch -t -p1` reverted it; verified, GNU patch 2.7.6).
    applies: (p) => p.reverse && p.writes,
    examples: {
      found: [
        "git diff | git apply -R",
        "git diff --binary | git apply -R --unidiff-zero",
        "git apply --reverse x.patch",
        "git apply --rev x.patch",
        "git -C sub apply -R -",
        "git apply -R --index x.patch",
        "git apply --stat --apply -R x.patch",
        "git diff | patch -R -p1",
        "git diff | patch -Rp1",
        "git diff | patch --reverse -p1",
        "git diff | patch --rev -p1",
        "patch -R -i x.patch",
        "patch -R a.txt x.patch",
        "git diff | patch -t -p1",
        "git diff | patch --batch -p1",
        "git diff | patch --bat -p1",
        "sudo patch -R -p1 < x.patch",
        "bash -c 'git diff | git apply -R'",
      ],
      spared: [
        "git apply x.patch",
        "git diff | git apply",
        "git apply -R --check x.patch",
        "git apply -R --stat x.patch",
        "git apply -R --cached x.patch",
        "git diff | patch -p1",
        "patch -R --dry-run -p1 < x.patch",
        "patch -p1 -i x.patch",
        "git apply --reject x.patch",
      ],
    },
  },
];

/** The work-losing operations of one judged command (git and patch only; empty for nearly every command). */
export function workLossOf(j: Judged): WorkLoss[] {
  const reading = readGit(j);
  const patch = readPatchApply(j);
  if (!reading && !patch) return [];
  const command = [j.name, ...j.args].join(" ");
  return WORK_LOSS.filter((entry) =>
    (reading !== undefined && entry.loses?.(reading)) || (patch !== undefined && entry.applies?.(patch))
  ).map(({ id, name }) => ({ id, name, command }));
}

/**
 * Work it loses if a word names a file when it runs, with that word (relative to where git runs);
 * only for entries it does not match outright.
 */
export function workLossIfPath(j: Judged): (WorkLoss & { path: string; start: string })[] {
  const reading = readGit(j);
  if (!reading) return [];
  const command = [j.name, ...j.args].join(" ");
  const start = resolveGit(factOf(j).args).start;
  return WORK_LOSS.flatMap(({ id, name, loses, ifPath }) => {
    const path = loses?.(reading) ? undefined : ifPath?.(reading);
    return path === undefined ? [] : [{ id, name, command, path, start }];
  });
}

function readGit(j: Judged): GitReading | undefined {
  const fact = factOf(j);
  if (!fact.is("git")) return undefined;
  const call = resolveGit(fact.args);
  if (call.subcommand === undefined) return undefined;
  const subcommand = call.subcommand.toLowerCase();
  const spec = GIT.git!.subcommands?.[subcommand];
  if (!spec) return undefined;
  const words = fact.words.slice(fact.words.length - call.args.length);
  const verdict = judgeWithSpec(`git ${subcommand}`, spec, words);
  const reading: GitReading = {
    subcommands: [subcommand, ...verdict.subcommands.map((s) => s.toLowerCase())],
    has: (...spellings) => {
      let given = false;
      for (const option of verdict.options) {
        if (option.names.some((n) => spellings.includes(n))) given = !option.negated;
      }
      return given;
    },
    operands: verdict.operands,
  };
  return reading;
}
