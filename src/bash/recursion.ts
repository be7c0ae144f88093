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
  /** It walks the working directory whatever its operands are. */
  root?: boolean;
}

interface TreeEntry {
  /** It always walks its directories; otherwise only with one of `walk`. */
  always?: boolean;
  walk?: readonly string[];
  /** Options (by any of their spellings) that make it follow links. */
  follow: readonly string[];
  /** It follows links unless one of these is given (`diff --no-dereference`). */
  followUnless?: readonly string[];
  /** An option whose value makes it walk (`grep -d recurse`), with that value. */
  walkValue?: { option: string; value: string };
  contents: boolean;
  /** Options that make it enter hidden entries; without this field it always does. */
  hidden?: readonly string[];
  /** It walks the working directory whatever its operands are (they are patterns and revisions). */
  root?: boolean;
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
  // `diff -rN dir empty` prints every file below dir as added lines; it follows links by default.
  // Without -r a directory operand is read too: `diff dA dB` compares each dA/NAME with dB/NAME and
  // `diff dA f` compares dA/f, so any operand may be a tree (one level read is judged as all).
  diff: { always: true, follow: [], followUnless: ["--no-dereference"], contents: true },
  // `git diff --no-index dA dB` walks both trees, hidden files included; links are shown as their
  // target's name, not followed.
  "git diff": { walk: ["--no-index"], follow: [], contents: true },
  // Archivers and copiers put every file below a directory, contents and all, where it can be read
  // back under another name (`tar -cf - . | tar -xOf -` prints `.env`).
  tar: {
    walk: ["-c", "--create", "-r", "--append", "-u", "--update"],
    follow: ["-h", "--dereference"],
    contents: true,
  },
  cp: {
    walk: ["-r", "-R", "--recursive", "-a", "--archive"],
    follow: ["-L", "--dereference"],
    contents: true,
  },
  rsync: { walk: ["-r", "--recursive", "-a", "--archive"], follow: ["-L", "--copy-links"], contents: true },
  scp: { walk: ["-r"], follow: [], followUnless: [], contents: true },
  zip: {
    walk: ["-r", "--recurse-paths", "-R", "--recurse-patterns"],
    follow: [],
    followUnless: ["-y", "--symlinks"],
    contents: true,
  },
  // Searches the tracked (with --untracked/--no-index, every) file below the working directory.
  "git grep": { always: true, root: true, follow: [], contents: true },
};

/**
 * The options of a command read without a spec: each letter of a cluster (`-rL` is `-r`, `-L`) and
 * each long name (`--recursive=x` is `--recursive`), up to `--`. Values are not told from options,
 * so a value may count as one: that only finds more walks.
 */
export function optionsOf(args: readonly string[]): ReadOption[] {
  const out: ReadOption[] = [];
  for (const arg of args) {
    if (arg === "--") break;
    if (arg.startsWith("--")) out.push({ names: [arg.split("=")[0]!], negated: false });
    else if (/^-[^-]/.test(arg)) {
      for (const c of arg.slice(1)) out.push({ names: [`-${c}`], negated: false });
    }
  }
  return out;
}

/** How `name` (with its subcommand: `git grep`), given these options (as its parser read them), reads directories; undefined when it does not walk them. */
export function treeRead(name: string, options: readonly ReadOption[]): TreeRead | undefined {
  const entry = TREES[name];
  if (!entry) return undefined;
  // A long option given without a spec may be abbreviated (`--recur`): any start of a spelling counts.
  const given = (spellings: readonly string[]) =>
    options.some((o) =>
      !o.negated &&
      o.names.some((n) => spellings.includes(n) || (n.length > 3 && spellings.some((s) => s.startsWith(n))))
    );
  // getopt's argmatch takes any unambiguous start of the value (`--dir=rec`).
  const byValue = entry.walkValue !== undefined &&
    options.some((o) =>
      o.names.includes(entry.walkValue!.option) && o.value !== undefined && o.value.length >= 3 &&
      entry.walkValue!.value.startsWith(o.value)
    );
  if (!entry.always && !given(entry.walk ?? []) && !byValue) return undefined;
  return {
    contents: entry.contents,
    follow: given(entry.follow) || (entry.followUnless !== undefined && !given(entry.followUnless)),
    hidden: entry.hidden === undefined || given(entry.hidden),
    ...(entry.root ? { root: true } : {}),
  };
}
