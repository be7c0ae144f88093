/**
 * Commands that apply a patch to the working tree: `git apply` and GNU `patch`. Which files they
 * write is in the patch, not in their words; whether they revert the changes the patch names
 * (`-R`, and patch's `--batch`, which reverses a patch that looks already applied) decides whether
 * applying it discards work: `git diff | git apply -R` is `git checkout -- .` (verified, git 2.39,
 * GNU patch 2.7.6). Pure: the patch file itself is read when deciding (`src/policy/patch-targets.ts`).
 *
 * ```ts
 * readPatchApply(judged("git diff | patch -R -p1").at(1)); // { reverse: true, writes: true, input: { stdin: true }, strip: 1, ... }
 * ```
 */
import type { Judged, Word } from "./command.ts";
import { factOf } from "./catastrophic.ts";
import { resolveGit } from "./git.ts";
import type { CommandSpec } from "./spec.ts";
import { judgeWithSpec } from "./spec-parse.ts";
import { GIT } from "./specs/git.ts";
import { flags, values } from "./specs/build.ts";

/**
 * GNU patch 2.7.6 as `patch --help` lists it: getopt_long (unique prefixes, clustered letters,
 * attached values). Operands: the file to patch, then the patch file.
 */
export const PATCH_SPEC: CommandSpec = {
  summary: "apply a diff file to an original (GNU patch)",
  effect: "write",
  effectWhy: "writes every file the patch names",
  options: [
    ...values("-p --strip", "-F --fuzz", "-i --input", "-o --output", "-r --reject-file", "-D --ifdef"),
    ...values("-V --version-control", "-B --prefix", "-Y --basename-prefix", "-z --suffix", "-g --get"),
    ...values("-d --directory", "--quoting-style", "--reject-format", "--read-only"),
    ...flags("-l --ignore-whitespace", "-c --context", "-e --ed", "-n --normal", "-u --unified"),
    ...flags("-N --forward", "-R --reverse", "--merge", "-E --remove-empty-files", "-Z --set-utc"),
    ...flags("-T --set-time", "-b --backup", "--backup-if-mismatch", "--no-backup-if-mismatch"),
    ...flags("-t --batch", "-f --force", "-s --quiet --silent", "--verbose", "--dry-run", "--posix"),
    ...flags("--binary", "-v --version", "--help"),
  ],
  operands: [{ role: "write", optional: true }, { role: "read", optional: true }],
};

/** One application of a patch, as the command's words tell it. */
export interface PatchApply {
  tool: "git apply" | "patch";
  /** It reverts what the patch adds (`-R`; patch's `--batch` reverses a patch already applied). */
  reverse: boolean;
  /** It changes files (not `--check`, `--stat`, `--dry-run`, `--cached`). */
  writes: boolean;
  /** The patch files it reads; empty when the patch comes from its input. */
  files: string[];
  /** Leading components stripped from the names in the patch (`-p`; git's default is 1). */
  strip?: number;
  /** Where the names in the patch are taken from (`patch -d`, `git -C`), relative to where it runs. */
  dir: string;
  /** git apply's `--directory`: prepended to every name. */
  prefix?: string;
  /** patch's first operand (or `-o`): the only file it writes, whatever the patch names. */
  only?: string;
}

/** The patch application a command makes, if it is `git apply` or `patch`. */
export function readPatchApply(j: Judged): PatchApply | undefined {
  const fact = factOf(j);
  if (fact.is("patch")) return readPatch(fact.words);
  if (!fact.is("git")) return undefined;
  const call = resolveGit(fact.args);
  if (call.subcommand?.toLowerCase() !== "apply") return undefined;
  const words = fact.words.slice(fact.words.length - call.args.length);
  const verdict = judgeWithSpec("git apply", GIT.git!.subcommands!.apply!, words);
  const has = given(verdict.options);
  const strip = verdict.options.findLast((o) => o.names.includes("-p"))?.value;
  const prefix = verdict.options.findLast((o) => o.names.includes("--directory"))?.value;
  // --stat, --numstat, --summary and --check print instead of applying, unless --apply is given too.
  const inspects = has("--stat", "--numstat", "--summary", "--check") && !has("--apply");
  return {
    tool: "git apply",
    reverse: has("--reverse"),
    writes: !inspects && !has("--cached"),
    files: verdict.operands.map((o) => o.text).filter((f) => f !== "-"),
    strip: strip === undefined ? 1 : Number(strip),
    dir: call.start,
    ...(prefix !== undefined ? { prefix } : {}),
  };
}

function readPatch(words: readonly Word[]): PatchApply {
  const verdict = judgeWithSpec("patch", PATCH_SPEC, words);
  const has = given(verdict.options);
  const value = (name: string) => verdict.options.findLast((o) => o.names.includes(name))?.value;
  const [original, patchFile] = verdict.operands.map((o) => o.text);
  const input = value("-i") ?? patchFile;
  const strip = value("-p");
  const output = value("-o");
  const only = output ?? original;
  return {
    tool: "patch",
    reverse: has("--reverse") || has("--batch"),
    writes: !has("--dry-run", "--help", "--version"),
    files: input === undefined || input === "-" ? [] : [input],
    ...(strip !== undefined ? { strip: Number(strip) } : {}),
    dir: value("-d") ?? ".",
    ...(only !== undefined && only !== "-" ? { only } : {}),
  };
}

/** Whether one of the spellings is in effect: given, and not cancelled by a later `--no-` form. */
function given(options: readonly { names: readonly string[]; negated: boolean }[]) {
  return (...spellings: string[]) => {
    let on = false;
    for (const option of options) {
      if (option.names.some((n) => spellings.includes(n))) on = !option.negated;
    }
    return on;
  };
}
