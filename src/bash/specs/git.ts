/**
 * git 2.39: global options (git's own parser, exact) before the subcommand, then the subcommand's
 * parse-options (unique prefixes and `--no-` forms). Option lists come from git itself
 * (`git-options.generated.ts`); the roles below are the reviewed part. Subcommands that change the
 * repository are here too, so that their options that run programs (`fetch --upload-pack`) are
 * found however abbreviated, and keep prefix rules from covering them.
 */
import type { CommandSpec, OptionSpec, Role, Slot } from "../spec.ts";
import { effect, flags, opt, optionals, reviewed, values } from "./build.ts";
import { GIT_OPTIONS } from "./git-options.generated.ts";

type Review = Readonly<Record<string, Omit<OptionSpec, "names">>>;

const program = (why: string) => ({ role: "program" as Role, why });
const write = (why?: string) => ({ role: "write" as Role, ...(why ? { why } : {}) });
const read = { role: "read" as Role };
const unchecked = (why: string) => ({ role: "unchecked" as Role, why });

/** Options of any subcommand that run another program. */
const RUNS: Review = {
  "--upload-pack": program("runs this program on the remote side (locally for local and ext:: remotes)"),
  "--receive-pack": program("runs this program on the remote side"),
  "--exec": program("runs this program on the remote side"),
  "--ext-diff": program("runs the external diff driver"),
  "--textconv": program("runs textconv filters"),
  "--filters": program("runs the configured filters"),
  "--open-files-in-pager": program("runs a pager on the matching files"),
  "-O": program("runs a pager on the matching files"),
};

const REVS: Slot[] = [{ name: "revs", role: "plain", optional: true, repeat: true, check: "git-rev" }];
/** `--format` and `--pretty`: `%G?`, `%GG`, `%GS`, `%GK`... verify signatures with gpg. */
const FORMATS: OptionSpec[] = [
  opt("--format", { role: "plain", check: "git-format" }),
  { names: ["--pretty"], arg: "optional", check: "git-format" },
];
const sub = (
  summary: string,
  name: string,
  more: Partial<CommandSpec> & { review?: Review } = {},
): CommandSpec => {
  const { review, ...rest } = more;
  return {
    summary,
    options: reviewed(GIT_OPTIONS[name] ?? [], { ...RUNS, ...review }),
    operands: REVS,
    ...rest,
  };
};
const changes = (summary: string, name: string, review: Review = {}): CommandSpec =>
  sub(summary, name, { review, effect: "write", effectWhy: "changes the repository or its remotes" });

/** Revision-walking options (rev-list-options), for log, show, whatchanged and rev-list. */
const REV_OPTIONS: OptionSpec[] = [
  ...flags("--all", "--reflog", "--alternate-refs", "--single-worktree", "--ignore-missing", "--bisect"),
  ...flags("--stdin", "--cherry-mark", "--cherry-pick", "--left-only", "--right-only", "--cherry"),
  ...flags("-g --walk-reflogs", "--merge", "--boundary", "--simplify-by-decoration", "--show-pulls"),
  ...flags("--full-history", "--dense", "--sparse", "--simplify-merges", "--topo-order", "--date-order"),
  ...flags(
    "--author-date-order",
    "--reverse",
    "--do-walk",
    "--abbrev-commit",
    "--oneline",
    "--no-expand-tabs",
  ),
  ...flags(
    "--no-notes",
    "--standard-notes",
    "--relative-date",
    "--parents",
    "--children",
  ),
  ...flags("--left-right", "--graph", "-c", "--cc", "--dd", "--remerge-diff", "-m", "--first-parent"),
  ...flags("--exclude-first-parent-only", "--not", "--merges", "--no-merges", "--no-min-parents"),
  ...flags("--no-max-parents", "--all-match", "--invert-grep", "-i --regexp-ignore-case", "--basic-regexp"),
  ...flags("-E --extended-regexp", "-F --fixed-strings", "-P --perl-regexp", "--remove-empty", "--count"),
  ...flags("--timestamp", "--header", "--follow", "--clear-decorations", "--source", "--use-mailmap"),
  ...flags("--mailmap", "--full-diff", "--log-size", "-t", "-r", "--root", "--no-commit-id", "-v", "-s"),
  ...flags("--always", "--objects", "--objects-edge", "--unpacked", "--no-object-names", "--object-names"),
  ...values("--glob", "--exclude", "--exclude-hidden", "--encoding", "--date", "--min-parents"),
  ...values(
    "--max-parents",
    "-n --max-count",
    "--skip",
    "--since",
    "--after",
    "--since-as-filter",
    "--until",
  ),
  ...values("--before", "--max-age", "--min-age", "--author", "--committer", "--grep-reflog", "--grep"),
  ...values("--decorate-refs", "--decorate-refs-exclude", "-L", "--filter"),
  ...optionals("--branches", "--tags", "--remotes", "--ancestry-path", "--no-walk"),
  ...FORMATS,
  ...optionals("--expand-tabs", "--notes", "--show-notes", "--show-linear-break", "--decorate"),
  { names: ["--show-signature"], role: "program", why: "runs gpg (gpg.program) to verify signatures" },
];

const DIFF_OPTIONS: OptionSpec[] = [
  ...reviewed(GIT_OPTIONS["diff-options"] ?? [], {
    ...RUNS,
    "--output": write("writes the diff to this file"),
    "--ext-diff": program("runs the external diff driver"),
  }),
  ...flags("-p -u", "-s", "-z", "-B", "-M", "-C", "-D", "-R", "-a --text", "-b", "-w", "-W", "-U"),
  ...optionals("-l", "-S", "-G"),
  opt("-O", { role: "read", why: "reads the order of the files from this file" }),
];

const LOG: CommandSpec = {
  summary: "show commit logs",
  numberOption: true,
  options: [...REV_OPTIONS, ...DIFF_OPTIONS],
  operands: REVS,
};

const DIFF: CommandSpec = {
  summary: "show changes",
  options: [
    ...DIFF_OPTIONS,
    ...flags("--cached --staged", "--merge-base", "--base", "--ours", "--theirs", "-0", "-1", "-2", "-3"),
    { names: ["--no-index"], changes: { revs: "read" } },
  ],
  operands: REVS,
};

const REV_PARSE: CommandSpec = {
  summary: "pick out and massage revision names (options matched exactly; unknown ones are printed)",
  long: "exact",
  options: [
    ...flags("--git-dir", "--show-toplevel", "--verify", "-q --quiet", "--symbolic", "--symbolic-full-name"),
    ...flags(
      "--is-inside-work-tree",
      "--is-inside-git-dir",
      "--is-bare-repository",
      "--is-shallow-repository",
    ),
    ...flags("--show-prefix", "--show-cdup", "--git-common-dir", "--absolute-git-dir", "--sq", "--sq-quote"),
    ...flags("--show-superproject-working-tree", "--shared-index-path", "--local-env-vars", "--all", "--not"),
    ...flags("--revs-only", "--no-revs", "--flags", "--no-flags", "--show-ref-format", "--default"),
    ...values("--git-path", "--path-format", "--glob", "--exclude", "--disambiguate", "--prefix"),
    ...values("--since", "--after", "--until", "--before"),
    ...optionals("--abbrev-ref", "--short", "--show-object-format", "--branches", "--tags", "--remotes"),
    opt("--resolve-git-dir", read),
  ],
  operands: REVS,
};

/** `git branch NAME` creates a branch; listing options make operands patterns. */
const LISTING: Review = {
  "--list": { changes: { names: "plain" } },
  "-a": { changes: { names: "plain" } },
  "-r": { changes: { names: "plain" } },
  "--contains": { changes: { names: "plain" } },
  "--no-contains": { changes: { names: "plain" } },
  "--merged": { changes: { names: "plain" } },
  "--no-merged": { changes: { names: "plain" } },
  "--points-at": { changes: { names: "plain" } },
  "--format": { changes: { names: "plain" } },
  "--sort": { changes: { names: "plain" } },
  "--show-current": { changes: { names: "plain" } },
};
const CREATES: Slot[] = [{ name: "names", role: "write", optional: true, repeat: true }];
const BRANCH_WRITES = "-d -D -m -M -c -C -u --unset-upstream --edit-description -f --create-reflog -t";
const TAG_WRITES = "-d -a -m -F -s -u -f -e --create-reflog --cleanup";
const writes = (names: string): Review =>
  Object.fromEntries(names.split(" ").map((n) => [n, { ...write("changes branches or tags") }]));

const REMOTE_FIRST: Slot[] = [{ role: "plain", optional: true, check: "git-remote" }, ...REVS];
const CLONE_REVIEW: Review = {
  "-u": program("runs this program as upload-pack"),
  "--template": program("copies hooks from this template directory"),
  "-c": program("sets configuration, which can name programs git runs"),
  "--config": program("sets configuration, which can name programs git runs"),
};

const CONFIG_KEY: Slot = { name: "key", role: "plain", optional: true, check: "git-config-key" };
const CONFIG_READS = "--get --get-all --get-regexp --get-urlmatch -l --list --get-color --get-colorbool";

const SUBCOMMANDS: Record<string, CommandSpec> = {
  status: sub("working tree status", "status", {
    operands: [{ role: "plain", optional: true, repeat: true }],
  }),
  log: LOG,
  show: { ...LOG, summary: "show objects" },
  whatchanged: { ...LOG, summary: "show logs with the changes each commit introduces" },
  "rev-list": { ...LOG, summary: "list commit objects" },
  diff: DIFF,
  "diff-tree": { ...LOG, summary: "compare the content of two trees" },
  "diff-files": { ...DIFF, summary: "compare the working tree with the index" },
  "diff-index": { ...DIFF, summary: "compare a tree with the working tree or index" },
  "rev-parse": REV_PARSE,
  blame: sub("show who changed each line", "blame", {
    review: { "--ignore-revs-file": read, "--contents": read, "-S": read },
  }),
  annotate: sub("show who changed each line", "annotate", {
    review: { "--ignore-revs-file": read, "--contents": read, "-S": read },
  }),
  shortlog: sub("summarize the log", "shortlog", {
    options: [...REV_OPTIONS, ...reviewed(GIT_OPTIONS.shortlog!)],
  }),
  describe: sub("name a commit from its tags", "describe"),
  "ls-files": sub("list files in the index", "ls-files", { review: { "-X": read, "--exclude-from": read } }),
  "ls-tree": sub("list a tree object", "ls-tree"),
  "ls-remote": {
    ...sub("list references in a remote repository", "ls-remote", {
      operands: [{ role: "plain", optional: true, check: "git-remote" }, {
        role: "plain",
        optional: true,
        repeat: true,
      }],
    }),
    effect: "network",
    effectWhy: "asks the remote (a host the command may name) or runs git-upload-pack on a local repository",
  },
  "cat-file": sub("show repository objects", "cat-file", {
    review: {
      "--batch": unchecked("prints the objects named on standard input, which are not seen here"),
      "--batch-command": unchecked("prints the objects named on standard input, which are not seen here"),
    },
  }),
  "merge-base": sub("find common ancestors", "merge-base"),
  "name-rev": sub("name revisions", "name-rev"),
  "show-ref": sub("list references", "show-ref", {
    options: [...reviewed(GIT_OPTIONS["show-ref"]!), ...flags("--branches")],
  }),
  "for-each-ref": sub("list references", "for-each-ref"),
  "count-objects": sub("count unpacked objects", "count-objects"),
  "check-ignore": sub("debug gitignore", "check-ignore", { operands: [{ role: "plain", repeat: true }] }),
  "check-attr": sub("show gitattributes", "check-attr", { operands: [{ role: "plain", repeat: true }] }),
  grep: sub("search tracked files", "grep", {
    review: { "-f": read, "--no-index": { changes: { revs: "read" } } },
    // The pattern comes first; what is searched is judged as a tree walk (recursion.ts).
    operands: [{ name: "revs", role: "plain", optional: true, repeat: true }],
    options: [
      ...reviewed(GIT_OPTIONS.grep!, { ...RUNS, "-f": read }),
      ...values("-e"),
      ...flags("--and", "--or", "--not", "(", ")"),
      ...optionals("-A", "-B", "-C").map((o) => ({ ...o, arg: "required" as const })),
    ],
    numberOption: true,
  }),
  branch: sub("list, create or delete branches", "branch", {
    review: { ...LISTING, ...writes(BRANCH_WRITES) },
    operands: CREATES,
  }),
  tag: sub("list, create or delete tags", "tag", {
    review: { ...LISTING, "-l": { changes: { names: "plain" } }, ...writes(TAG_WRITES), "-F": read },
    operands: CREATES,
  }),
  remote: {
    ...sub("manage remotes", "remote"),
    subcommands: {
      show: {
        summary: "show a remote (-n: from the configuration only)",
        options: [{ names: ["-n"], readMode: true }],
        operands: [{ role: "plain", repeat: true }],
        effect: "network",
        effectWhy: "asks the remote for its branches (without -n)",
      },
      "get-url": {
        summary: "print a remote's URL",
        options: flags("--push", "--all"),
        operands: [{ role: "plain" }],
      },
    },
  },
  stash: {
    summary: "stash changes (only listing and showing are read-only)",
    effect: "write",
    effectWhy: "without a subcommand stashes the changes",
    subcommands: {
      list: { ...LOG, summary: "list stashes" },
      show: {
        ...DIFF,
        summary: "show a stash",
        options: [...DIFF.options!, ...flags("-u --include-untracked")],
      },
      drop: {
        summary: "remove a stash",
        effect: "write",
        options: flags("-q --quiet"),
        operands: [{ role: "plain", optional: true }],
      },
      clear: { summary: "remove every stash", effect: "write", operands: [] },
    },
  },
  worktree: {
    summary: "manage worktrees (only listing is read-only)",
    subcommands: {
      list: {
        summary: "list worktrees",
        options: [...flags("-v --verbose", "--porcelain", "-z"), ...values("--expire")],
        operands: [],
      },
      remove: {
        summary: "remove a worktree",
        effect: "write",
        options: flags("-f --force"),
        operands: [{ role: "write" }],
      },
    },
  },
  reflog: {
    ...LOG,
    summary: "reference logs (show is the default)",
    subcommands: {
      show: { ...LOG, summary: "show a reference log" },
      delete: {
        summary: "delete reflog entries (a stash is one)",
        effect: "write",
        options: flags("--rewrite", "--updateref", "-n --dry-run", "--verbose"),
        operands: [{ role: "plain", repeat: true }],
      },
      expire: {
        summary: "prune old reflog entries (a stash is one)",
        effect: "write",
        options: [
          ...flags("--rewrite", "--updateref", "--stale-fix", "-n --dry-run", "--verbose", "--all"),
          ...flags("--single-worktree"),
          ...values("--expire", "--expire-unreachable"),
        ],
        operands: [{ role: "plain", optional: true, repeat: true }],
      },
    },
  },
  config: sub("read configuration (writes without --get/--list)", "config", {
    review: {
      // `--blob=REV:PATH` reads the configuration from a stored file, which `-l` prints.
      "--blob": { role: "plain", check: "git-rev" },
      "-f": read,
      "--file": read,
      "-e": write("opens the configuration in an editor"),
      ...Object.fromEntries(CONFIG_READS.split(" ").map((n) => [n, { changes: { value: "plain" } }])),
      ...writes("--replace-all --add --unset --unset-all --rename-section --remove-section"),
    },
    operands: [CONFIG_KEY, { name: "value", role: "unchecked", optional: true }, {
      role: "plain",
      optional: true,
    }],
  }),
  help: {
    summary: "git help (lists only: a page is shown by running man, info or a browser)",
    options: [
      ...flags("-a --all", "-g --guides", "-c --config", "--verbose"),
      effect("-i --info", "unchecked", "runs info"),
      effect("-m --man", "unchecked", "runs man"),
      effect("-w --web", "unchecked", "runs a web browser"),
    ],
    operands: [{ role: "unchecked", optional: true, repeat: true, why: "shows the page by running man" }],
  },
  version: { summary: "git version", options: flags("--build-options"), operands: [] },
  var: {
    summary: "show a git variable",
    options: flags("-l"),
    operands: [{ role: "plain", optional: true }],
  },
  fetch: { ...changes("download objects and refs", "fetch"), operands: REMOTE_FIRST },
  pull: { ...changes("fetch and integrate", "pull"), operands: REMOTE_FIRST },
  push: { ...changes("update remote refs", "push"), operands: REMOTE_FIRST },
  clone: {
    ...changes("clone a repository", "clone", CLONE_REVIEW),
    operands: [{ role: "plain", check: "git-remote" }, { role: "write", optional: true }],
  },
  archive: changes("create an archive", "archive", {
    "-o": write(),
    "--remote": program("runs on a remote"),
  }),
  rebase: changes("reapply commits", "rebase", { "-x": program("runs this command after each commit") }),
  difftool: changes("run a diff tool", "difftool", {
    "-t": program("runs this diff tool"),
    "-x": program("runs this command as the diff tool"),
  }),
  commit: changes("record changes", "commit", {
    "--file": { role: "read", why: "reads the message from this file" },
    "--template": { role: "read", why: "reads the message template from this file" },
  }),
  init: {
    summary: "create a repository",
    effect: "write",
    options: [
      ...flags("-q --quiet", "--bare"),
      ...values("--shared", "--object-format", "-b --initial-branch", "--separate-git-dir"),
      opt("--template", { role: "program", why: "copies hooks from this template directory" }),
    ],
    operands: [{ role: "write", optional: true }],
  },
  "filter-branch": {
    summary: "rewrite branches",
    effect: "program",
    effectWhy: "runs the filter commands it is given",
    unknownOptionsAreOperands: true,
    operands: [{ role: "plain", optional: true, repeat: true }],
  },
  submodule: {
    summary: "submodules (foreach runs a command in each)",
    effect: "write",
    unknownOptionsAreOperands: true,
    subcommands: {
      foreach: {
        summary: "run a command in each submodule",
        effect: "program",
        effectWhy: "runs a command in each submodule",
        unknownOptionsAreOperands: true,
        operands: [{ role: "plain", optional: true, repeat: true }],
      },
      status: {
        summary: "submodule status",
        options: flags("--cached", "--recursive", "-q --quiet"),
        operands: REVS,
      },
    },
  },
  bisect: {
    summary: "binary search for a change (run runs a command)",
    effect: "write",
    subcommands: {
      run: {
        summary: "run a command at each step",
        effect: "program",
        effectWhy: "runs a command at each step",
        unknownOptionsAreOperands: true,
        operands: [{ role: "plain", optional: true, repeat: true }],
      },
      log: { summary: "bisect log", operands: [] },
      visualize: {
        summary: "show the remaining suspects",
        aliases: ["view"],
        options: LOG.options!,
        operands: REVS,
      },
    },
  },
  mergetool: {
    summary: "run merge conflict tools",
    effect: "write",
    options: [
      opt("-t --tool", { role: "program", why: "runs this merge tool" }),
      ...flags("--tool-help", "-y --no-prompt", "--prompt", "-g --gui", "-O"),
    ],
    operands: REVS,
  },
  "send-email": {
    summary: "send patches by email",
    effect: "write",
    unknownOptionsAreOperands: true,
    options: [
      opt("--smtp-server", { role: "program", why: "names a program that sends the mail when it is a path" }),
      opt("--sendmail-cmd", { role: "program", why: "runs this command to send the mail" }),
      opt("--to-cmd --cc-cmd --header-cmd", { role: "program", why: "runs this command" }),
    ],
    operands: [{ role: "read", optional: true, repeat: true }],
  },
  "read-tree": changes("read trees into the index (and the working tree with -u)", "read-tree"),
  "checkout-index": changes("copy files from the index to the working tree", "checkout-index"),
  "update-ref": changes("update or delete a reference", "update-ref"),
  "send-pack": {
    ...changes("push objects over git's protocol (push's plumbing)", "send-pack"),
    operands: REMOTE_FIRST,
  },
  "http-push": {
    summary: "push objects over HTTP/DAV (push's plumbing; its own exact option parser)",
    effect: "write",
    long: "exact",
    options: flags("--all", "--dry-run", "--force", "--verbose", "-v", "-d", "-D"),
    operands: REMOTE_FIRST,
  },
  merge: changes("join histories", "merge"),
  "cherry-pick": changes("apply the changes of commits", "cherry-pick"),
  // The files named are read (`git hash-object -w .env | xargs git cat-file -p` prints .env).
  "hash-object": {
    ...changes("compute object ids of files (and store them with -w)", "hash-object"),
    operands: [{ role: "read", optional: true, repeat: true }],
  },
  revert: changes("revert commits", "revert"),
  am: changes("apply patches from a mailbox", "am"),
  // The patch files named are read; the files it writes are named in them (`patch-apply.ts`).
  apply: {
    ...changes("apply a patch to files and/or to the index", "apply", {
      "--build-fake-ancestor": write("writes a temporary index to this file"),
    }),
    operands: [{ role: "read", optional: true, repeat: true }],
  },
  reset: changes("reset HEAD, the index or the working tree", "reset"),
  checkout: changes("switch branches or restore working tree files", "checkout"),
  restore: changes("restore working tree files", "restore"),
  switch: changes("switch branches", "switch"),
  clean: changes("remove untracked files", "clean"),
  // The files named are written (removed, moved): Edit rules meet them.
  rm: {
    ...changes("remove files from the working tree and the index", "rm"),
    operands: [{ role: "write", repeat: true }],
  },
  mv: {
    summary: "move or rename files",
    effect: "write",
    options: flags("-f --force", "-k", "-n --dry-run", "-v --verbose", "--sparse"),
    operands: [{ role: "write", repeat: true }],
  },
};

const GLOBAL: OptionSpec[] = [
  opt("-C", { role: "read", why: "runs git in this directory" }),
  opt("-c", { role: "program", why: "sets configuration, which can name programs git runs" }),
  opt("--config-env", { role: "program", why: "sets configuration, which can name programs git runs" }),
  {
    names: ["--exec-path"],
    arg: "optional",
    role: "program",
    why: "runs git's programs from this directory",
  },
  opt("--git-dir", { role: "read" }),
  opt("--work-tree", { role: "read" }),
  ...values("--namespace", "--super-prefix", "--list-cmds", "--attr-source"),
  ...flags("-p --paginate", "-P --no-pager", "--bare", "--no-replace-objects", "--no-lazy-fetch"),
  ...flags("--no-optional-locks", "--no-advice", "--literal-pathspecs", "--glob-pathspecs"),
  ...flags("--noglob-pathspecs", "--icase-pathspecs", "--html-path", "--man-path", "--info-path"),
  ...flags("--version -v", "--help -h"),
];

export const GIT: Record<string, CommandSpec> = {
  git: {
    summary: "git (global options before the subcommand are matched exactly)",
    long: "exact",
    cluster: false,
    permute: false,
    rulesSkipGlobals: true,
    unknownOptionsRun: true,
    options: GLOBAL,
    subcommands: Object.fromEntries(
      Object.entries(SUBCOMMANDS).map(([name, spec]) => [name, { long: "git", ...spec }]),
    ),
    tests: {
      readOnly: [
        "git status",
        "git log --oneline -5",
        "git log --onel -3",
        "git diff --stat HEAD~1",
        "git show HEAD:README.md",
        "git branch -a",
        "git -C sub status",
        "git config --get user.name",
        "git remote -v",
        "git stash list",
        "git remote show -n origin",
        "git help -a",
      ],
      notReadOnly: [
        "git fetch --upload-p=x origin",
        "git -c core.pager=sh log",
        "git log --output=/tmp/x",
        "git diff --ext-diff",
        "git branch newbranch",
        "git config core.fsmonitor x",
        "git ls-remote 'ext::sh -c id'",
        "git ls-remote origin",
        "git ls-remote https://x.example/r.git",
        "git remote show origin",
        "git help log",
        "git help -w log",
        "git push",
        "git bogus",
        "git log --bogus",
        "git log --show-signature",
        "git show --show-sig HEAD",
        "git log --format=%G?",
        "git log --pretty=format:%GS",
        "git cat-file --batch-all-objects --batch",
        "echo HEAD:.env | git cat-file --batch",
      ],
      paths: {
        "git -C /etc status": ["read:/etc"],
        "git diff --no-index a /etc/passwd": ["read:a", "read:/etc/passwd"],
        "git diff -O/etc/order": ["read:/etc/order"],
        "git commit -F ~/.aws/credentials": ["read:~/.aws/credentials"],
        "git show HEAD:.env": ["read:.env"],
        "git cat-file -p :0:config/.env": ["read:config/.env"],
        "git blame .env": ["read:.env"],
      },
    },
  },
};
