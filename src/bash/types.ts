/** What the Bash analyzer tells the rest of toolrt. Field names follow `toolrt analyze --json`. */
import type { HistoryRead } from "./git-history.ts";
import type { TreeRead } from "./recursion.ts";
import type { PrintedConfig } from "./git-printed-config.ts";

export type ParseOutcome = "simple" | "too-complex" | "parse-unavailable";

export interface Redirect {
  op: string;
  target: string;
  /** The target is an unquoted pattern (bash expands it when it names one file). */
  glob?: boolean;
}

export interface SimpleCommand {
  argv: string[];
  env: Record<string, string>;
  redirects: Redirect[];
  /**
   * The command as permission rules see it: wrappers (timeout, nice, ...) and safe env assignments
   * stripped, words joined by single spaces. `Bash(git commit:*)` is matched against this.
   */
  ruleText: string;
  /** An assignment of a variable not on the safe list: no allow rule may cover this command. */
  hasUnsafeEnv: boolean;
  /** Why no prefix allow rule may cover this command (e.g. `find -exec`), empty when none. */
  noAutoAllow: string[];
  /** True when this command, with these arguments, only reads (no writes, no code execution). */
  readOnly: boolean;
  /** Why it is not read-only, when something specific says so (it prints secrets). */
  reasons?: string[];
  /**
   * Why it prints secrets into the transcript (`echo $GITHUB_TOKEN`, `jq -n env`), when it does: a
   * security finding, which no allow rule may approve (also in `reasons`).
   */
  secrets?: string[];
  /** Stable two-word prefix for a rule suggestion (`git commit`), null when none is safe. */
  prefix: string | null;
  /** Ids of the work-loss table's entries this command matches (`git-reset-hard`), if any. */
  workLoss?: string[];
  /** The wrapper this command was taken out of (`sudo`, `bash -c`, `find -exec`, `$(...)`), if any. */
  via?: string;
  /**
   * `ruleText` and the argv's words as rules would see them if each word known only when the
   * command runs (`$x`, `$(cmd)`, what xargs appends) were `*`, any words or none; set only when
   * there is such a word. Deny and ask rules that could match this may match what really runs.
   */
  open?: { ruleText: string; argv: string; meanings?: string[] };
  /**
   * The literal text fed to its standard input (a here-document, a here-string, `echo ... |`),
   * when it is not read-only: a program that reads commands there (`ed`, `vim -es`) may run them.
   */
  input?: string;
  /** Its inline code runs a command it builds while it runs (`os.system("cu" + "rl")`): any program. */
  runsComputed?: boolean;
  /**
   * Why it loads code no word of the line runs as a program (`LD_PRELOAD=./x.so ls`, `ctypes.CDLL`,
   * an `export PERL5OPT=-Mx` earlier in the line; `code-loading.ts`): that code may run any program.
   */
  loadsCode?: string;
  /**
   * Programs it runs to reach another host, as rules see them (`git ls-remote h:x` runs
   * `ssh h git-upload-pack 'x'`; `helper-programs.ts`): deny and ask rules match these too.
   */
  helpers?: string[];
}

/** A command the shipped default policy denies outright, with the reason shown to people. */
export interface Catastrophe {
  /** Stable id of the catastrophe table's entry, e.g. `rm-root`, `pipe-to-shell`, `fork-bomb`. */
  id: string;
  /** The entry's name (`deleting the system or a home directory`). */
  name: string;
  /** What was found: the command and why it is catastrophic. */
  reason: string;
}

/** A git command that throws away work (`work-loss.ts`); the default policy asks before it. */
export interface WorkLoss {
  /** The table entry's id, also the id of the default policy rule that asks. */
  id: string;
  name: string;
  /** The command as written. */
  command: string;
}

/**
 * Work lost only if a word names a file when the command runs (`git checkout a.txt` restores a.txt
 * when no branch has that name): the policy looks at the file system when deciding.
 */
export interface WorkLossIfExists extends WorkLoss {
  /** Index of the sub-command in `commands`. */
  index: number;
  /** The word as a path from each directory the command may run in. */
  paths: string[];
}

/** A patch a sub-command applies (`git apply`, `patch`): the files it writes are named in the patch. */
export interface PatchUse {
  /** Index of the sub-command in `commands`. */
  index: number;
  /** `git apply` or `patch`. */
  tool: string;
  /** Where the names in the patch are taken from, from each directory the command may run in. */
  dirs: string[];
  /** The patch files, relative to those directories; empty when the patch comes from its input. */
  files: string[];
  /** The file its input is redirected from (`patch -p1 < x.patch`), from where the shell runs. */
  input?: string[];
  /** Leading components stripped from the names (`-p`); undefined: patch's own guess. */
  strip?: number;
  /** git apply's `--directory`, prepended to every name. */
  prefix?: string;
  /** patch's original file (or `-o`): the one file it writes. */
  only?: string;
}

/** A git remote a sub-command reaches by name: its URL decides which helper program git runs. */
export interface RemoteUse {
  /** Index of the sub-command in `commands`. */
  index: number;
  /** Where git runs, from each directory the command may run in. */
  dirs: string[];
  /** The remote's name; undefined for the default remote, `*` for every remote. */
  name?: string;
  /** The program git runs on the other side (`git-upload-pack`). */
  service: string;
}

export interface CheckHit {
  id: number;
  name: string;
  message: string;
}

export interface PathAccess {
  command: string;
  path: string;
  access: "read" | "write";
  /** An unquoted pattern: policy judges it by the files it matches when the command is checked. */
  glob?: boolean;
  /** Part of it is known only when the command runs (`$f`, `$(cmd)`): it may be any path. */
  runtime?: boolean;
  /** The command reads the whole tree below this directory: policy judges what is in it. */
  tree?: TreeRead;
}

/**
 * Where a git command finds its repository: git reads that repository's own configuration, which
 * can name programs (core.fsmonitor, aliases, pagers). Policy checks the file system for it.
 */
export interface RepositoryUse {
  command: string;
  /** The directory git starts its search in, as a path like those in `paths`. */
  dir: string;
  /** True when `dir` is the repository itself (`--git-dir`), not a place to search from. */
  gitDir?: boolean;
  /** The subcommand, when it is not one of git's own: the configuration may define it as an alias. */
  alias?: string;
  /** It prints stored file content: of any version in the history, or of the tracked files. */
  reads?: HistoryRead;
  /** It may read objects a partial clone lacks (and so fetch them from its promisor remote). */
  objects?: boolean;
  /** It prints values of git's configuration, where credentials are kept (`git remote -v`). */
  config?: PrintedConfig;
}

export interface BashAnalysis {
  command: string;
  parse: ParseOutcome;
  commands: SimpleCommand[];
  checks: CheckHit[];
  readOnly: boolean;
  classification: "search" | "read" | "list" | "other";
  warnings: string[];
  prefix: string | null;
  suggestions: string[];
  paths: PathAccess[];
  /** The repositories git commands use (see `RepositoryUse`); absent when there are none. */
  repositories?: RepositoryUse[];
  /**
   * Where commands run whose program a file in the directory or above picks (`cargo` and
   * `rust-toolchain.toml`, see `toolchains.ts`); absent when there are none.
   */
  toolchains?: { command: string; dir: string }[];
  /** Commands the default policy denies outright; empty for nearly every command. */
  catastrophic: Catastrophe[];
  /** Git commands that throw away uncommitted or unpushed work; empty for nearly every command. */
  workLoss: WorkLoss[];
  /** Work lost if a path exists when deciding; absent when there is none (see `WorkLossIfExists`). */
  workLossIfExists?: WorkLossIfExists[];
  /** git remotes reached by name: the URL in the configuration says whether git runs ssh. */
  remotes?: RemoteUse[];
  /** Patches applied: the files they write are read from the patch when deciding. */
  patches?: PatchUse[];
  /**
   * Why no allow rule (prefix, exact, saved or session) may approve this command without a prompt:
   * an unparseable or too complex structure, the sub-command cap, a critical deletion target.
   */
  askReasons: string[];
  /**
   * Why the command cannot be pictured even with every word known only at run time standing for
   * any words: a command name or inline code known only then, text not parsed, a catastrophe for
   * some value of an unknown word, a critical deletion. Empty when what is unknown is argument
   * values only: then a sandbox may stand in for the rules that cannot approve the structure.
   */
  opaque: string[];
  /** Functions the command defines: each changes what its name runs for the rest of the line. */
  defines: string[];
}
