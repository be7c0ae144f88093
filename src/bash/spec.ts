/**
 * The shape of a command spec: what every word of a command means. Specs are reviewed data (one
 * file per command family under `specs/`); `spec-parse.ts` reads argv against them. A command is
 * read-only only when every word matches its spec with a read-only role.
 */

/**
 * What a value (an option's argument or an operand) is, or for an option without a value, what
 * giving it does.
 * - `plain`: inert text (a number, a pattern, a format, a name); for a flag: changes output only
 * - `read`: a file or directory the command reads (reported in the analysis `paths`)
 * - `write`: a file or directory it writes (reported); for a flag: the command writes or changes state
 * - `program`: a program or shell command it runs; no prefix rule may cover the command
 * - `code`: code it interprets (`check` names the language's checker, which may clear it)
 * - `secret`: makes the command print secrets (the environment, credentials)
 * - `varname`: names a shell variable that is read; a subscript in it is evaluated arithmetically
 * - `assign`: names a shell variable that is assigned (subscript evaluated too)
 * - `arith`: evaluated as a bash arithmetic expression
 * - `unchecked`: makes the command do something the analyzer does not follow (read files named
 *   inside another file): not read-only
 * - `tree`: a directory read with everything beneath it, hidden files and links included (grep -r):
 *   the decision looks inside, and judges what is hidden there and where links lead as paths read
 * - `network`: makes the command reach a host the command itself names, or send local data to
 *   one (a URL, a registry, a remote): not read-only
 * - `service`: the command talks to the service its configuration names (a package registry, a
 *   cluster's API, GitHub's API, a remote daemon), with the user's credentials; what it sends (a
 *   package name, a label) leaves the machine: not read-only. In a sandbox its network allow-list
 *   decides where it may connect.
 */
export type Role =
  | "plain"
  | "read"
  | "write"
  | "program"
  | "code"
  | "secret"
  | "varname"
  | "assign"
  | "arith"
  | "unchecked"
  | "network"
  | "service"
  | "tree";

/**
 * How the real tool matches long options.
 * - `gnu`: getopt_long and argp: `--name`, `--name=value`, `--name value` (required values), and any
 *   unique prefix of a name (`--outp` is `--output`); an exact name always wins
 * - `git`: git's parse-options: as `gnu`, and every long option also as `--no-name` (abbreviable)
 * - `exact`: only the full name (Go's pflag/cobra, clap, jq, ripgrep, procps); `--flag=value` too
 * - `none`: the tool has no long options; a word starting with `--` is unknown
 */
export type LongStyle = "gnu" | "git" | "exact" | "none";

/** Named value checkers (code in `spec-values.ts`): they judge values whose role depends on content. */
export type Check =
  | "sed"
  | "awk"
  | "jq"
  | "ps-bsd"
  | "ps-format"
  | "git-remote"
  | "git-config-key"
  | "git-format"
  | "git-rev"
  | "test-expression"
  | "secret-name"
  | "kube-resource"
  | "kube-raw"
  | "kube-output"
  | "kube-filename"
  | "tar-archive"
  | "date-string";

export interface OptionSpec {
  /**
   * Every spelling: `-o`, `--output`, aliases; single-dash long names (`-name` of find) are
   * matched whole and exactly; bare words (`(` of find) too.
   */
  names: readonly string[];
  /**
   * `none` (default), `required` (`-o F`, `-oF`, `--output F`, `--output=F`), or `optional`
   * (attached only: `-iSUFFIX`, `--color=WHEN`; a separate word is never taken).
   */
  arg?: "none" | "required" | "optional";
  /** Values the option takes, each with its role (`jq --arg NAME VALUE`); default one, `role`. */
  values?: readonly Role[];
  /** Role of the value, or for a flag what giving it does. Default `plain`. */
  role?: Role;
  /** Checker for the value (with role `code`: the language). */
  check?: Check;
  /** The value is a file holding code (`sed -f`, `jq -f`): read, and the code cannot be checked. */
  codeFile?: boolean;
  /**
   * The value is a file (or `-`, the input) naming the files the command reads (`wc --files0-from`,
   * `file -f`): read, and the files it names are known only when it runs.
   */
  listsFiles?: boolean;
  /** Given, the command writes files whose names only its input holds (`tar -x` extracts an archive). */
  extracts?: boolean;
  /** Consumes every following word up to one of these (find's `-exec ... ;`). */
  until?: readonly string[];
  /** This option supplies the named operand slot instead (`grep -e PATTERN` leaves no pattern operand). */
  fills?: string;
  /** While given, these operand slots or options (by first name) take another role (`sed -i`: files written). */
  changes?: Readonly<Record<string, Role>>;
  /** Switches a command whose `effect` writes to a mode that only reads (`unzip -l`). */
  readMode?: boolean;
  /** The operands after it name files in this directory (`tar -C DIR`), each one relative to the last. */
  operandsIn?: boolean;
  /**
   * With role `program`: the value is a shell command line the tool runs with `sh -c` (`tar
   * --to-command`), read as code so that rules see what it runs. A string: only a value starting
   * with it is one, the rest of the value (`--checkpoint-action=exec=CMD`); other values are inert.
   */
  shell?: true | string;
  /** No prefix rule may cover the command when given, though the role is only `write` (find -delete). */
  noPrefixRule?: boolean;
  /** Why the role is what it is, shown in reasons (`runs the program named by its value`). */
  why?: string;
}

export interface Slot {
  /** For `fills` and `changes`. */
  name?: string;
  role: Role;
  /** Why the role is what it is, shown in reasons. */
  why?: string;
  check?: Check;
  /** May be absent (at most one slot repeats; the ones after it are filled from the end). */
  optional?: boolean;
  repeat?: boolean;
  /** The operand must match (`date +FORMAT`); another word is refused. */
  pattern?: string;
  /** Assumed when no operand is given (`find` searches `.`, `cd` goes `~`): reported as a path. */
  implicit?: string;
}

export interface SpecTests {
  /** Commands that must come out read-only (run through the whole analyzer). */
  readOnly: readonly string[];
  /** Commands that must not be read-only. */
  notReadOnly: readonly string[];
  /** Commands and the paths (`read:P`, `write:P`) the analysis must report for them. */
  paths?: Readonly<Record<string, readonly string[]>>;
}

export interface CommandSpec {
  /** One line: what the command is, for people reading the data. */
  summary: string;
  /** Long-option matching of the real tool. Default `gnu`. */
  long?: LongStyle;
  /** Short options may be clustered (`-abc`). Default true. */
  cluster?: boolean;
  /**
   * Options are recognised after operands (GNU permutation). Default true; false for POSIX tools,
   * and for anything with subcommands at the level before the subcommand.
   */
  permute?: boolean;
  /** `--` ends the options. Default true. */
  dashDash?: boolean;
  /** A word that is not a known option is an operand (echo), not a reason to refuse. */
  unknownOptionsAreOperands?: boolean;
  /** `-NUM` is a count (`head -5`, `git log -3`). */
  numberOption?: boolean;
  /**
   * `@FILE` anywhere in the arguments, even after `--`, is replaced by the words FILE holds before
   * options are parsed (binutils and gcc through libiberty's expandargv, rustc, tsc): FILE is read,
   * and what the words in it do is unknown.
   */
  responseFiles?: boolean;
  /** Words starting with `+` are options of this role (less `+cmd` runs pager commands at start-up). */
  plus?: { role: Role; why?: string };
  /** Old-style tar: a first word without a dash is a cluster of options whose values follow in order. */
  oldStyleFirstWord?: boolean;
  options?: readonly OptionSpec[];
  /** Options valid here and in every subcommand below (cobra persistent flags, npm configs). */
  persistent?: readonly OptionSpec[];
  /** Positional slots in order. Default: any number of paths read. */
  operands?: readonly Slot[];
  /** The command itself writes or runs, whatever its options (`unzip` extracts). Default plain. */
  effect?: Role;
  /** Why the `effect` is what it is. */
  effectWhy?: string;
  /** Its `effect` writes files whose names only its input holds (`unzip` extracts an archive). */
  extracts?: boolean;
  /** The first operand names one of these (git status, docker ps). */
  subcommands?: Readonly<Record<string, CommandSpec>>;
  /** Other names of this subcommand (`ls` for `list`). */
  aliases?: readonly string[];
  /** An unknown option here may run a program (git's global options): no prefix rule covers it. */
  unknownOptionsRun?: boolean;
  /** Permission rules see `name subcommand args`, the options before the subcommand left out (git). */
  rulesSkipGlobals?: boolean;
  tests?: SpecTests;
}

/** A family of specs: command name (as argv[0] after `/usr/bin/` is stripped) to spec. */
export type SpecFamily = Readonly<Record<string, CommandSpec>>;
