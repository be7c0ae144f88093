/**
 * Judging a command line against the catastrophe table (`catastrophes.ts`). Each judged command
 * is seen as a `Fact`: the program it may be (case-folded, path-stripped, `zf_` and package
 * runners removed, a glob by what it can match), its options read the way a deny must read them
 * (any abbreviation of a long option counts), and its operands as the places they can name
 * (`targets.ts`, after `cd` and expansions).
 */
import { CATASTROPHES, pipelinesOf, type Scene, socketsOf } from "./catastrophes.ts";
import type { FunctionDefinition, Judged, Word } from "./command.ts";
import { START } from "./cwd.ts";
import { inlineCode } from "./inline-code.ts";
import { can, type Place, placesOf, type Where } from "./targets.ts";
import type { Catastrophe } from "./types.ts";
import { patternMatcher } from "../tool/shell-pattern.ts";

/** One judged command as the catastrophe table reads it. */
export interface Fact {
  judged: Judged;
  /** The program, lower-cased, for messages. */
  program: string;
  /** The arguments after the program (package runners' own words removed). */
  args: string[];
  words: Word[];
  /** Could the program be `name`, or one of `names`? */
  is(names: string | ReadonlySet<string>): boolean;
  /**
   * Is one of these options given before `--`: a short letter in any cluster, or a long option
   * written as any prefix of one of `longs` (GNU getopt_long accepts unique prefixes; an
   * ambiguous one fails, so counting it can only deny what would not have run).
   */
  flag(letters: string, ...longs: string[]): boolean;
  /** The words that are not options (`-x`, `--x`), and everything after `--`. */
  operands(): Word[];
  /** The places a word can name where this command runs. */
  places(word: Word): Place[];
  /** The inline code an interpreter runs (`python3 -c CODE`), read once. */
  code(): string | undefined;
  /** Every path it writes (operands, option values, redirections) as places, worked out once. */
  writes(): { text: string; place: Place }[];
}

/** Runners that fetch and run a package's program: `npx rimraf ~` runs `rimraf ~`. */
const PACKAGE_RUNNERS = new Set(["npx", "bunx", "pnpx"]);
const RUNNER_SUBCOMMANDS: Record<string, ReadonlySet<string>> = {
  npm: new Set(["exec", "x"]),
  pnpm: new Set(["dlx", "exec"]),
  yarn: new Set(["dlx", "exec"]),
  bun: new Set(["x"]),
};
/** Options of the runners above that take a value. */
const RUNNER_VALUE_OPTIONS = /^(?:-p|--package|-c|--call|--node-options|--registry|--cache|--prefix)$/;

/** Sees one judged command as a `Fact`. */
export function factOf(j: Judged, where?: Where): Fact {
  return new CommandFact(j, where);
}

class CommandFact implements Fact {
  readonly program: string;
  readonly args: string[];
  readonly words: Word[];
  private readonly matcher: ((name: string) => boolean) | undefined;
  private written: { text: string; place: Place }[] | undefined;
  private inline: string | null | undefined;

  constructor(readonly judged: Judged, private readonly where?: Where) {
    let words = judged.words;
    let nameWord = words[0];
    const runner = programName(nameWord?.text ?? "");
    const sub = RUNNER_SUBCOMMANDS[runner];
    if (PACKAGE_RUNNERS.has(runner) || (sub && sub.has(words[1]?.text ?? ""))) {
      let i = sub ? 2 : 1;
      while (i < words.length && words[i]!.text.startsWith("-")) {
        i += RUNNER_VALUE_OPTIONS.test(words[i]!.text) ? 2 : 1;
      }
      if (i < words.length) {
        const spec = words[i]!;
        // `rimraf@5`, `@scope/pkg@1`: the program is the package's name.
        nameWord = { ...spec, text: spec.text.replace(/^@[^/]+\//, "").replace(/@.*$/, "") };
        words = words.slice(i);
      }
    } else if (runner === "gio" && words[1]?.text === "trash") {
      nameWord = { ...words[1]!, text: "trash" };
      words = words.slice(1);
    }
    this.program = nameWord === judged.words[0] ? runner : programName(nameWord?.text ?? "");
    this.words = words.slice(1);
    this.args = this.words.map((w) => w.text);
    this.matcher = nameWord?.glob ? patternMatcher(this.program, true) : undefined;
  }

  is(names: string | ReadonlySet<string>): boolean {
    const { matcher, program } = this;
    if (typeof names === "string") return matcher ? matcher(names) : program === names;
    return matcher ? [...names].some(matcher) : names.has(program);
  }

  flag(letters: string, ...longs: string[]): boolean {
    for (const a of this.args) {
      if (a === "--") return false;
      if (a.length > 1 && a[0] === "-" && a[1] !== "-") {
        for (let k = 1; k < a.length; k++) if (letters.includes(a[k]!)) return true;
      } else if (a.startsWith("--") && a.length > 2) {
        const name = a.slice(2).split("=")[0]!;
        if (longs.some((l) => l.startsWith(name))) return true;
      }
    }
    return false;
  }

  operands(): Word[] {
    const cut = this.words.findIndex((w) => w.text === "--");
    const before = cut === -1 ? this.words : this.words.slice(0, cut);
    const after = cut === -1 ? [] : this.words.slice(cut + 1);
    return [...before.filter((w) => !/^-./.test(w.text)), ...after];
  }

  places(word: Word): Place[] {
    return placesOf(word, this.judged.dirs ?? [START], this.judged.oldDirs ?? [], this.where);
  }

  code(): string | undefined {
    if (this.inline === undefined) {
      const own = this.words.length === this.judged.words.length - 1 && this.judged.inline !== undefined;
      this.inline = own ? this.judged.inline! : inlineCode(this.program, this.args)?.code ?? null;
    }
    return this.inline ?? undefined;
  }

  writes(): { text: string; place: Place }[] {
    this.written ??= this.judged.paths.filter((p) => p.access === "write").flatMap((p) => {
      const word: Word = { text: p.path, quoted: false, glob: p.glob === true, dynamic: false };
      return this.places(word).map((place) => ({ text: p.path, place }));
    });
    return this.written;
  }
}

/** The file name of any path (`./../../bin/RM` is rm), zsh's builtin twins (`zf_rm`) as themselves. */
function programName(word: string): string {
  // `$(which rm)` and `$(command -v rm)` are rm.
  const found = word.startsWith("$(") || word.startsWith("`")
    ? /^(?:\$\(|`)(?:which|command\s+-v|type\s+-[pP])\s+([\w.+-]+)\s*(?:\)|`)$/.exec(word)?.[1] ?? word
    : word;
  const name = found.slice(found.lastIndexOf("/") + 1);
  return (name.startsWith("zf_") ? name.slice(3) : name).toLowerCase();
}

/** Every catastrophe in the judged commands of one command line (run in `where`, when known). */
export function findCatastrophes(
  raw: string,
  judged: Judged[],
  functions: readonly FunctionDefinition[] = [],
  where?: Where,
): Catastrophe[] {
  const facts = judged.map((j) => factOf(j, where));
  const scene: Scene = {
    raw,
    facts,
    judged,
    functions,
    pipelines: pipelinesOf(facts),
    sockets: socketsOf(judged),
  };
  const found: Catastrophe[] = [];
  for (const entry of CATASTROPHES) {
    const detail = entry.find(scene);
    if (detail !== undefined) found.push({ id: entry.id, name: entry.name, reason: detail });
  }
  return found;
}

/** Deleting these is never auto-approved: any top-level directory, home, the working directory and its parents. */
const CRITICAL_TEXT = /^(?:\/[^/]*|~[^/]*|~\/\*|\.|\.\.|\.\/\*|\*|(?:\.\.\/)+\.\.|(?:\.\.\/)*\*)$/;

/** A deletion target that always needs a person: a catastrophic place, a top-level one, or `.`/`..`/`*`. */
export function isCriticalTarget(path: string): boolean {
  const word: Word = { text: path, quoted: false, glob: /[*?[]/.test(path), dynamic: false };
  const places = placesOf(word, [START]);
  if (places.some((p) => can.beRoot(p) || can.beSystemDir(p) || can.beSweep(p) || p.segments.length <= 1)) {
    return true;
  }
  return CRITICAL_TEXT.test(path.replace(/\/+$/, "").replace(/^\.\//, "./") || "/");
}
