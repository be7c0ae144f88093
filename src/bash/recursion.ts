/**
 * Commands that read whole directory trees (`grep -r`, `rg`, `ls -R`, `du`, `find`, `tree`). A
 * tree is judged by what is in it when the command is checked: a content reader (`grep -r KEY .`)
 * reads `.env` and keys below the directory as surely as `cat` does, and one that follows links
 * (`grep -R`, `rg -L`, `ls -RL`, `find -L`) walks out of the workspace through them.
 */
import type { ReadOption } from "./spec-parse.ts";

/** How a command reads a directory it is given. */
export interface TreeRead {
  /** It reads the files' contents, not only their names and metadata. */
  contents: boolean;
  /** It follows symbolic links it meets inside the tree. */
  follow: boolean;
  /** It enters hidden entries (`.env`, `.secrets/`); `rg` passes them over unless told. */
  hidden: boolean;
}

interface TreeEntry {
  /** It always walks its directories; otherwise only with one of `walk`. */
  always?: boolean;
  walk?: readonly string[];
  /** Options (by any of their spellings) that make it follow links. */
  follow: readonly string[];
  /** An option whose value makes it walk (`grep -d recurse`), with that value. */
  walkValue?: { option: string; value: string };
  contents: boolean;
  /** Options that make it enter hidden entries; without this field it always does. */
  hidden?: readonly string[];
}

const GREP: TreeEntry = {
  walk: ["-r", "-R"],
  follow: ["-R"],
  walkValue: { option: "-d", value: "recurse" },
  contents: true,
};

/** Reviewed data: tree-walking commands and the options that make them walk or follow links. */
const TREES: Record<string, TreeEntry> = {
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: { always: true, follow: ["-L"], contents: true, hidden: ["--hidden", "-.", "-u"] },
  ls: { walk: ["-R"], follow: ["-L"], contents: false },
  du: { always: true, follow: ["-L"], contents: false },
  tree: { always: true, follow: ["-l"], contents: false },
  find: { always: true, follow: ["-L", "-follow"], contents: false },
};

/** How `name`, given these options (as its parser read them), reads directories; undefined when it does not walk them. */
export function treeRead(name: string, options: readonly ReadOption[]): TreeRead | undefined {
  const entry = TREES[name];
  if (!entry) return undefined;
  const given = (spellings: readonly string[]) =>
    options.some((o) => !o.negated && o.names.some((n) => spellings.includes(n)));
  // getopt's argmatch takes any unambiguous start of the value (`--dir=rec`).
  const byValue = entry.walkValue !== undefined &&
    options.some((o) =>
      o.names.includes(entry.walkValue!.option) && o.value !== undefined && o.value.length >= 3 &&
      entry.walkValue!.value.startsWith(o.value)
    );
  if (!entry.always && !given(entry.walk ?? []) && !byValue) return undefined;
  return {
    contents: entry.contents,
    follow: given(entry.follow),
    hidden: entry.hidden === undefined || given(entry.hidden),
  };
}
