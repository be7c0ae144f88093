/**
 * git commands that print the content of files as git stored them: patches of past commits
 * (`git log -p`, `git show`, `git diff REV`), objects named by id (`git cat-file -p 1a2b`),
 * archives and exports of trees, and the diff of tracked files (`git diff`). Such a command reads
 * every file the history (or the index) holds, including a `.env` committed once and removed:
 * the policy lists those paths when deciding (`policy/git-history.ts`) so Read deny and ask rules
 * meet them. Listing options (`--stat`, `--name-only`, `-s`) print no content. Pure.
 */
import type { Judged } from "./command.ts";
import { resolveGit } from "./git.ts";
import { judgeWithSpec, type SpecVerdict } from "./spec-parse.ts";
import { GIT } from "./specs/git.ts";

/** What a command's output may hold: any stored version of any file, or tracked files as they are now. */
export type HistoryRead = "history" | "tracked";

/** Options that make log-like commands print content (patches, or commits picked by content). */
const CONTENT = [
  "--patch",
  "--patch-with-stat",
  "--patch-with-raw",
  "-p",
  "-u",
  "-c",
  "--cc",
  "--dd",
  "--remerge-diff",
  "--word-diff",
  "--color-words",
  "-W",
  "--function-context",
  "-S",
  "-G",
  "-L",
];
/** Options that replace the patch with names or counts (unless a content option comes too). */
const NO_CONTENT = [
  "-s",
  "--no-patch",
  "--stat",
  "--shortstat",
  "--numstat",
  "--name-only",
  "--name-status",
  "--summary",
  "--dirstat",
  "--raw",
  "--compact-summary",
  "--quiet",
];
/** Commands whose whole output is stored content (or files of it): no option makes them list only. */
const ALWAYS = new Set([
  "archive",
  "fast-export",
  "format-patch",
  "bundle",
  "range-diff",
  "unpack-file",
  "request-pull",
]);
/** Patches by default: content unless only listing options are given. */
const PATCH_BY_DEFAULT = new Set(["show", "diff", "diff-index", "diff-files", "stash"]);
/** Raw or no diff by default: content only with a content option. */
const PATCH_ON_REQUEST = new Set(["log", "whatchanged", "reflog", "diff-tree", "rev-list", "shortlog"]);

export function historyRead(j: Judged): HistoryRead | undefined {
  if (j.name !== "git") return undefined;
  const call = resolveGit(j.args);
  const sub = call.subcommand?.toLowerCase();
  if (sub === undefined) return undefined;
  if (ALWAYS.has(sub)) return "history";
  const spec = GIT.git!.subcommands?.[sub];
  if (!spec) return undefined;
  const verdict = judgeWithSpec(`git ${sub}`, spec, j.words.slice(j.words.length - call.args.length));
  const given = (names: readonly string[]) =>
    verdict.options.some((o) => !o.negated && o.names.some((n) => names.includes(n)));
  const content = given(CONTENT);
  if (sub === "cat-file") return catFile(verdict);
  if (sub === "grep") return grep(verdict, given);
  if (PATCH_ON_REQUEST.has(sub)) return content ? "history" : undefined;
  if (!PATCH_BY_DEFAULT.has(sub)) return undefined;
  if (!content && given(NO_CONTENT)) return undefined;
  if (sub === "stash") return verdict.subcommands[0] === "show" || content ? "history" : undefined;
  if (sub === "show") return "history";
  // diff: any operand before `--` may be a revision; with none it compares tracked files or the index.
  if (given(["--no-index"])) return undefined;
  return verdict.operands.some((o) => !o.afterDashDash) ? "history" : "tracked";
}

/** `cat-file -p OBJECT` prints any object, a blob by id included; `-t`/`-s`/`-e` print no content. */
function catFile(verdict: SpecVerdict): HistoryRead | undefined {
  const batch = verdict.options.some((o) =>
    o.names.some((n) => n === "--batch" || n === "--batch-command" || n === "--filters" || n === "--textconv")
  );
  if (batch) return "history";
  const onlyFacts = verdict.options.some((o) => o.names.some((n) => n === "-t" || n === "-s" || n === "-e"));
  // `REV:PATH` is judged as a read of PATH already (spec-values.ts).
  const objects = verdict.operands.filter((o) => !o.text.includes(":"));
  return !onlyFacts && objects.length > 0 ? "history" : undefined;
}

/** `git grep PATTERN REV` searches a stored tree; `--cached` the index. */
function grep(verdict: SpecVerdict, given: (names: readonly string[]) => boolean): HistoryRead | undefined {
  const patternGiven = given(["-e", "-f"]);
  const rest = verdict.operands.filter((o) => !o.afterDashDash).slice(patternGiven ? 0 : 1);
  if (rest.length > 0) return "history";
  return given(["--cached"]) ? "tracked" : undefined;
}
