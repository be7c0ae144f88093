/**
 * Keys of a workspace repository's own configuration whose value is a program git runs on commands
 * toolrt judges read-only (`git status`, `diff`, `log`). Nobody sets these by hand to a script in a
 * project they cloned; a repository unpacked from an archive or made by a tool brings its own
 * `.git/config`, and `core.fsmonitor` there runs on the next `git status`. Values that well-known
 * tools write (git-lfs, git-crypt, a boolean fsmonitor, a plain pager) are inert. Reviewed data:
 * each entry has a test (test/policy/repo-programs.test.ts).
 */

export interface RunOnRead {
  /** The key as `git config --list` prints it (section and name lower-case). */
  key: RegExp;
  /** When git runs it, said of the value (`which git diff runs instead of its own diff`). */
  runs: string;
  /** Values that run nothing, or only the tool that wrote them. */
  inert?: RegExp;
}

const BOOLEAN = /^(?:true|false|yes|no|on|off|1|0|)$/i;
/** `git lfs install --local` and `git-crypt unlock` write these, by name or by the binary's path. */
const LFS_OR_CRYPT =
  /^(?:git-lfs (?:clean|smudge) -- %f|git-lfs filter-process|"?(?:\/[\w./-]*\/)?git-crypt"? (?:clean|smudge|diff))$/;
/** A pager named alone, with options only: `less -R`, `delta`, `diff-so-fancy`. */
const PLAIN_PAGER =
  /^(?:(?:\/[\w./-]*\/)?(?:less|more|most|cat|delta|bat|diff-so-fancy|ov|moar|lv)(?: +-[\w-]+)*)?$/;

export const RUN_ON_READS: readonly RunOnRead[] = [
  {
    key: /^core\.fsmonitor$/,
    runs: "git status, diff and others run to learn which files changed",
    inert: BOOLEAN,
  },
  {
    key: /^filter\..+\.(?:clean|smudge|process)$/,
    runs: "git status and diff run on files .gitattributes assigns the filter",
    inert: LFS_OR_CRYPT,
  },
  {
    key: /^diff\..+\.(?:textconv|command)$/,
    runs: "git diff, log -p and show run on files .gitattributes assigns the driver",
    inert: LFS_OR_CRYPT,
  },
  { key: /^diff\.external$/, runs: "git diff runs instead of its own diff" },
  { key: /^(?:core\.pager|pager\..+)$/, runs: "git log, diff and show page through", inert: PLAIN_PAGER },
  { key: /^gpg(?:\..+)?\.program$/, runs: "git log --show-signature and verify-commit run" },
];

/** The first entry that runs a program, as `core.fsmonitor = VALUE, which …`; undefined when none does. */
export function programOnRead(entries: readonly { key: string; value: string }[]): string | undefined {
  for (const { key, value } of entries) {
    const entry = RUN_ON_READS.find((r) => r.key.test(key.toLowerCase()));
    if (entry === undefined || entry.inert?.test(value.trim())) continue;
    const shown = value.length > 80 ? `${value.slice(0, 77)}...` : value;
    return `${key} = ${shown}, which ${entry.runs}`;
  }
  return undefined;
}
