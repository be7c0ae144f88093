/**
 * Judging a command line against the catastrophe table (`catastrophes.ts`). Each judged command
 * is seen as a `Fact`: the program it may be (case-folded, path-stripped, `zf_` and package
 * runners removed, a glob by what it can match), its options read the way a deny must read them
 * (any abbreviation of a long option counts), and its operands as the places they can name
 * (`targets.ts`, after `cd` and expansions).
 */
import { CATASTROPHES, type Scene } from "./catastrophes.ts";
import type { FunctionDefinition, Judged, Word } from "./command.ts";
import { START } from "./cwd.ts";
import { inlineCode } from "./inline-code.ts";
import { can, type Place, placesOf } from "./targets.ts";
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
export function factOf(j: Judged): Fact {
  let words = j.words;
  let nameWord = words[0];
  const base = (w: Word | undefined) => programName(w?.text ?? "");
  const runner = base(nameWord);
  const sub = RUNNER_SUBCOMMANDS[runner];
  if (PACKAGE_RUNNERS.has(runner) || (sub && sub.has(words[1]?.text ?? ""))) {
    let i = sub ? 2 : 1;
    while (i < words.length && words[i]!.text.startsWith("-")) {
      i += RUNNER_VALUE_OPTIONS.test(words[i]!.text) ? 2 : 1;
    }
    if (i < words.length) {
      const spec = words[i]!;
      // `rimraf@5`, `@scope/pkg@1`: the program is the package's name.
      const name = spec.text.replace(/^@[^/]+\//, "").replace(/@.*$/, "");
      nameWord = { ...spec, text: name };
      words = words.slice(i);
    }
  }
  if (base(nameWord) === "gio" && words[1]?.text === "trash") {
    nameWord = { ...words[1]!, text: "trash" };
    words = words.slice(1);
  }
  const program = base(nameWord);
  const args = words.slice(1).map((w) => w.text);
  const matcher = nameWord?.glob ? patternMatcher(program, true) : undefined;
  const dirs = j.dirs ?? [START];
  const oldDirs = j.oldDirs ?? [];
  const end = args.indexOf("--");
  const options = end === -1 ? args : args.slice(0, end);
  let code: string | null | undefined;
  return {
    judged: j,
    program,
    args,
    words: words.slice(1),
    is: (names) =>
      typeof names === "string"
        ? (matcher ? matcher(names) : program === names)
        : matcher
        ? [...names].some(matcher)
        : names.has(program),
    flag: (letters, ...longs) =>
      options.some((a) => {
        if (/^-[^-]/.test(a)) return [...a.slice(1)].some((c) => letters.includes(c));
        if (!a.startsWith("--") || a.length === 2) return false;
        const name = a.slice(2).split("=")[0]!;
        return longs.some((l) => l.startsWith(name));
      }),
    operands: () => {
      const rest = words.slice(1);
      const cut = rest.findIndex((w) => w.text === "--");
      const before = cut === -1 ? rest : rest.slice(0, cut);
      const after = cut === -1 ? [] : rest.slice(cut + 1);
      return [...before.filter((w) => !/^-./.test(w.text)), ...after];
    },
    places: (word) => placesOf(word, dirs, oldDirs),
    code: () => {
      if (code === undefined) code = inlineCode(program, args)?.code ?? null;
      return code ?? undefined;
    },
  };
}

/** The file name of any path (`./../../bin/RM` is rm), zsh's builtin twins (`zf_rm`) as themselves. */
function programName(word: string): string {
  // `$(which rm)` and `$(command -v rm)` are rm.
  const found = /^(?:\$\(|`)(?:which|command\s+-v|type\s+-[pP])\s+([\w.+-]+)\s*(?:\)|`)$/.exec(word)?.[1] ??
    word;
  return found.slice(found.lastIndexOf("/") + 1).replace(/^zf_/, "").toLowerCase();
}

/** Every catastrophe in the judged commands of one command line. */
export function findCatastrophes(
  raw: string,
  judged: Judged[],
  functions: readonly FunctionDefinition[] = [],
): Catastrophe[] {
  const scene: Scene = { raw, facts: judged.map(factOf), judged, functions };
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
