/**
 * Package managers' commands that run the command given to them (`npx cmd`, `npm exec -- cmd`,
 * `pnpm dlx cmd`, `uv run cmd`, `poetry run cmd`, `bundle exec cmd`, `npm run env -- cmd`): deny
 * and ask rules read the runner as the command it runs too (`command-meaning.ts`), so
 * `npm x -- npm i` meets `Bash(npm install:*)`. Reviewed data: each runner's subcommands and the
 * options before the command that take a value (a word after them is not the command).
 */
import { npmCommand } from "./npm-commands.ts";

interface Runner {
  /** Subcommands that run a command; none: the program itself does (`npx cmd`). */
  subcommands?: readonly string[];
  /** Single-letter options that take a value (`-p pkg`). */
  short?: string;
  /** Long options that take a value, without dashes (`package` for `--package pkg`). */
  long?: readonly string[];
  /** An option whose value is a shell command line it runs (`npx -c 'cmd'`). */
  shell?: RegExp;
}

const NPX: Runner = { short: "pcw", long: ["package", "call", "workspace"], shell: /^(?:-c|--call)$/ };
const UV_VALUES = [
  "with",
  "with-editable",
  "with-requirements",
  "python",
  "directory",
  "project",
  "package",
  "env-file",
  "extra",
  "group",
  "only-group",
  "index",
  "default-index",
  "index-url",
  "extra-index-url",
  "find-links",
  "config-file",
  "cache-dir",
  "from",
];

export const RUNNERS: Readonly<Record<string, Runner>> = {
  npx: NPX,
  pnpx: NPX,
  bunx: { short: "p", long: ["package"] },
  uvx: { short: "p", long: UV_VALUES },
  npm: { ...NPX, subcommands: ["exec"] },
  pnpm: { subcommands: ["dlx", "exec"], long: ["package", "filter"], shell: /^(?:-c|--shell-mode)$/ },
  yarn: { subcommands: ["dlx", "exec"], short: "p", long: ["package"] },
  bun: { subcommands: ["x"], short: "p", long: ["package"] },
  uv: { subcommands: ["run"], short: "p", long: UV_VALUES },
  poetry: { subcommands: ["run"], short: "C", long: ["directory", "project"] },
  pdm: { subcommands: ["run"], short: "p", long: ["project"] },
  pipenv: { subcommands: ["run"] },
  hatch: { subcommands: ["run"], short: "e", long: ["env"] },
  rye: { subcommands: ["run"] },
  bundle: { subcommands: ["exec"], long: ["gemfile"] },
  bundler: { subcommands: ["exec"], long: ["gemfile"] },
};

/** Where the command a runner runs starts, or the shell command line it runs. */
export type RunnerStart = { at: number; via: string; prefix?: string } | { shell: string; via: string };

const canonical = (program: string, word: string) => (program === "npm" ? npmCommand(word) ?? word : word);

/**
 * The command `texts` (a runner's words, name first) runs: its index, or for `npm run env` the
 * words after the script name, run by `env`. Undefined when it runs none.
 */
export function runnerStart(name: string, texts: readonly string[]): RunnerStart | undefined {
  const runner = RUNNERS[name];
  if (!runner) return undefined;
  let i = 1;
  if (runner.subcommands || name === "npm") {
    // The subcommand is the first word that is not an option, or one an option may have taken as its value.
    for (; i < texts.length; i++) {
      const word = texts[i]!;
      if (word.startsWith("-")) continue;
      const sub = canonical(name, word);
      if (name === "npm" && sub === "run" && texts[i + 1] === "env") return npmRunEnv(texts, i + 2);
      if (runner.subcommands?.includes(sub) || (name === "uv" && word === "tool" && texts[i + 1] === "run")) {
        i += word === "tool" ? 2 : 1;
        break;
      }
      if (!texts[i - 1]!.startsWith("-") || texts[i - 1]!.includes("=")) return undefined;
    }
    if (i >= texts.length) return undefined;
  }
  const via = texts.slice(0, i).join(" ");
  for (; i < texts.length; i++) {
    const word = texts[i]!;
    if (word === "--") return i + 1 < texts.length ? { at: i + 1, via } : undefined;
    if (!word.startsWith("-") || word === "-") return { at: i, via };
    // The words after it too: rules see a command's words joined by blanks, the quoting gone.
    if (runner.shell?.test(word)) {
      return i + 1 < texts.length ? { shell: texts.slice(i + 1).join(" "), via } : undefined;
    }
    if (takesValue(runner, word)) i++;
  }
  return undefined;
}

function takesValue(runner: Runner, word: string): boolean {
  if (word.startsWith("--")) return !word.includes("=") && (runner.long ?? []).includes(word.slice(2));
  return word.length === 2 && (runner.short ?? "").includes(word[1]!);
}

/** `npm run env -- cmd args`: npm's built-in env script runs `env` with the arguments given. */
function npmRunEnv(texts: readonly string[], from: number): RunnerStart | undefined {
  const at = texts[from] === "--" ? from + 1 : from;
  if (at >= texts.length) return undefined;
  return { at, via: "npm run env", prefix: "env" };
}
