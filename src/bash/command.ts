/** The walker's view of one simple command, before wrappers and rules are applied. */
import type { Access } from "./paths.ts";
import type { Redirect, SimpleCommand, WorkLoss } from "./types.ts";
import type { RemoteName } from "./helper-programs.ts";

export interface Word {
  /** The value the shell would pass: quotes removed, escapes applied, known variables resolved. */
  text: string;
  /** Some part of it was quoted. */
  quoted: boolean;
  /** An unquoted `*`, `?` or `[` the shell would expand to file names. */
  glob: boolean;
  /** Part of the value is only known when the command runs (substitution, unknown variable). */
  dynamic: boolean;
  /** The first variable in it whose value is unknown (`$HOME`), if any. */
  unknown?: string;
  /** For a process substitution `<(echo ...)`: the exact text the file gives, when it is known. */
  printed?: string;
}

export interface RawCommand {
  words: Word[];
  assignments: { name: string; value: string }[];
  redirects: Redirect[];
  /** Pipeline this command belongs to, its position in it and the pipeline's length. */
  pipe: number;
  stage: number;
  stages: number;
  /** Set for commands that run inside a substitution (`$(...)`, `<(...)`) of another command. */
  nested?: string;
  /** Commands run by substitutions inside this command's words or redirections. */
  subs: RawCommand[];
  /** Started with `&`: it runs in a forked process while the shell goes on. */
  background?: boolean;
  /** Started in the background by a loop that never ends and waits for nothing: a fork bomb. */
  forksForever?: boolean;
  /**
   * What the command reads on standard input when the command itself fixes it: a here-document
   * without expansions, a here-string, `< <(echo ...)`. Undefined when unknown or not redirected.
   */
  stdin?: string;
}

export interface WalkResult {
  /** Every command in source order, nested ones included. */
  commands: RawCommand[];
  /** Why the structure is too complex to judge word by word; empty when it is simple. */
  complex: string[];
  /** Functions defined, with how their bodies call themselves. */
  functions?: FunctionDefinition[];
  /** Literal text bash evaluates as an arithmetic expression or a variable name (`(( 'a[$(x)]' ))`). */
  evaluated?: string[];
  /** Names arithmetic evaluates (`(( x ))`): bash evaluates their values too. */
  arithmeticNames?: string[];
  /** Names bound to a value known only at run time that need not be a number. */
  unknownValues?: string[];
  /** Unquoted here-document bodies holding substitutions the parser did not read. */
  hereDocuments?: string[];
}

export interface FunctionDefinition {
  name: string;
  /** Commands in the body that call the function itself. */
  calls: number;
  /** Of those, the ones that run in a forked process (pipeline, background, substitution). */
  forked: number;
}

export function plainWord(text: string): Word {
  return { text, quoted: false, glob: /[*?[]/.test(text), dynamic: false };
}

/** One command after unwrapping and judgement, as the later stages (catastrophes, warnings) see it. */
export interface Judged {
  /** Effective command name (`rm` for `sudo /bin/rm -rf x`). */
  name: string;
  args: string[];
  words: Word[];
  raw: RawCommand;
  /** Files it touches, its redirections included; `glob` when the path is an unquoted pattern. */
  paths: Access[];
  command: SimpleCommand;
  /** What git work it throws away (`work-loss.ts`), when it does. */
  workLoss?: WorkLoss[];
  /** git remotes it reaches by name, whose URLs the configuration holds (`helper-programs.ts`). */
  remotes?: RemoteName[];
  /** An interpreter's inline code (`python3 -c CODE`), null when it has none; read once. */
  inline?: string | null;
  /** What it runs that rules cannot see (`Verdict.unseen`); the analysis calls it opaque. */
  unseen?: string[];
  /** Shell command lines it runs (`tar --to-command`), read as code like `sh -c`. */
  commandLines?: { text: string; via: string }[];
  /** Why it runs an interpreter's inline code, when it does. */
  runsInline?: string;
  /** The directory a wrapper runs it in (`env -C DIR`, `sudo -D DIR`). */
  chdir?: string;
  /** An unquoted glob where a subcommand goes (`git pus*`). */
  globSubcommand?: string;
  /** Every directory it may run in (`cd` earlier in the line); `.` is where the line started. */
  dirs?: string[];
  /** Where `$OLDPWD` and `cd -` may point when it runs. */
  oldDirs?: string[];
}
