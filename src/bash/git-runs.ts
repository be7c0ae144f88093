/**
 * Commands a git command line runs that its rule text does not show: shell commands in options
 * (`rebase --exec`, `fetch --upload-pack`, `difftool -x`, filter-branch's filters), commands git
 * runs for each submodule or bisect step, and programs named by configuration the line sets itself
 * (`-c core.editor=...`, `GIT_EDITOR=...`, see `git-config.ts`). Each comes back as a script for
 * the analyzer to read like `bash -c`, so deny and ask rules, catastrophes and the work-loss table
 * hold inside; what cannot be read makes the command opaque. Pure.
 */
import type { Judged, Word } from "./command.ts";
import {
  changesGit,
  COMMAND_VARIABLES,
  judgeSetting,
  keyMayRun,
  settingsOf,
  writtenKey,
} from "./git-config.ts";
import { resolveGit } from "./git.ts";
import { judgeWithSpec } from "./spec-parse.ts";
import { GIT } from "./specs/git.ts";
import { shellQuote } from "../tool/shell-quote.ts";

export interface GitRuns {
  scripts: { text: string; via: string }[];
  opaque: string[];
}

/** Options whose value is a shell command git runs (by any of their spellings in the spec). */
export const COMMAND_OPTIONS: readonly string[] = [
  "--exec",
  "--upload-pack",
  "--receive-pack",
  "--extcmd",
  "--open-files-in-pager",
  "--sendmail-cmd",
  "--to-cmd",
  "--cc-cmd",
  "--header-cmd",
];
/** Options naming a directory of hooks or programs: what is in it is not seen here. */
const PROGRAM_DIRECTORIES = ["--template"];
/** filter-branch's options whose value is shell code (it runs them with `eval`). */
const FILTERS = new Set([
  "--setup",
  "--env-filter",
  "--tree-filter",
  "--index-filter",
  "--parent-filter",
  "--msg-filter",
  "--commit-filter",
  "--tag-name-filter",
]);
const FILTER_BRANCH_FLAGS = new Set(["--force", "-f", "--remap-to-ancestor", "--prune-empty"]);

/** Words run as one command: a single word is shell code, several are the command and its arguments. */
const asScript = (words: readonly string[]) =>
  words.length === 1 ? words[0]! : words.map(shellQuote).join(" ");

export function gitRuns(j: Judged): GitRuns {
  const out: GitRuns = { scripts: [], opaque: [] };
  if (j.name !== "git") return out;
  const { settings, opaque } = settingsOf(j.words, j.command.env);
  out.opaque.push(...opaque);
  for (const setting of settings) {
    const judged = judgeSetting(setting);
    if ("opaque" in judged) out.opaque.push(judged.opaque);
    else if ("script" in judged) out.scripts.push({ text: judged.script, via: judged.why });
  }
  for (const [name, value] of Object.entries(j.command.env)) {
    if (COMMAND_VARIABLES.has(name)) {
      out.scripts.push({ text: value === "" ? "true" : value, via: `${name} for git` });
    }
  }
  const call = resolveGit(j.args);
  const exec = call.globals.findIndex((g) => g === "--exec-path" || g.startsWith("--exec-path="));
  if (exec !== -1 && call.globals[exec] !== "--exec-path") {
    out.opaque.push("git --exec-path=DIR runs git's programs from that directory, which is not seen here");
  }
  const sub = call.subcommand?.toLowerCase();
  const args = call.args;
  if (sub === undefined) return out;
  const inner = innerCommand(sub, args);
  if (inner) {
    if (inner.words.length === 0) {
      out.opaque.push(`git ${sub} runs a command the analysis cannot find in its words`);
    } else out.scripts.push({ text: inner.text ?? asScript(inner.words), via: `git ${sub}` });
  }
  if (sub === "filter-branch") filterBranch(args, out);
  const spec = GIT.git!.subcommands?.[sub];
  if (!spec) return out;
  const words = j.words.slice(j.words.length - args.length);
  for (const option of judgeWithSpec(`git ${sub}`, spec, words).options) {
    if (option.value === undefined || option.negated) continue;
    const name = option.names.find((n) => COMMAND_OPTIONS.includes(n));
    if (name) out.scripts.push({ text: option.value, via: `git ${sub} ${name}` });
    if (option.names.some((n) => PROGRAM_DIRECTORIES.includes(n))) {
      out.opaque.push(
        `git ${sub} ${option.names.at(-1)} copies hooks from ${option.value}, which are not seen here`,
      );
    }
  }
  return out;
}

/** The command `submodule foreach`, `bisect run` or `for-each-repo` runs, from the words after git's subcommand. */
function innerCommand(sub: string, args: readonly string[]): { words: string[]; text?: string } | undefined {
  if (sub === "submodule" || sub === "submodule--helper") {
    let i = 0;
    while (i < args.length && /^(?:-q|--quiet)$/.test(args[i]!)) i++;
    if (args[i] !== "foreach") return undefined;
    i++;
    while (i < args.length && /^(?:-q|--quiet|--recursive)$/.test(args[i]!)) i++;
    if (args[i] === "--") i++;
    return { words: args.slice(i) };
  }
  if (sub === "bisect" || sub === "bisect--helper") {
    const run = args.findIndex((a) => a === "run" || a === "--bisect-run");
    return run === -1 ? undefined : { words: args.slice(run + 1) };
  }
  if (sub === "for-each-repo") {
    // `git for-each-repo --config=KEY ARGS` runs `git ARGS` in every repository KEY lists.
    const at = args.findIndex((a) => !a.startsWith("--config"));
    const rest = at === -1 ? [] : args.slice(args[at] === "--" ? at + 1 : at);
    return { words: rest, text: ["git", ...rest].map(shellQuote).join(" ") };
  }
  return undefined;
}

/** git-filter-branch's own loop: four flags, every other option takes the next word, the rest are revisions. */
function filterBranch(args: readonly string[], out: GitRuns): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--" || !a.startsWith("-")) break;
    if (FILTER_BRANCH_FLAGS.has(a)) continue;
    const value = args[++i];
    if (FILTERS.has(a) && value !== undefined) {
      out.scripts.push({ text: value, via: `git filter-branch ${a}` });
    }
  }
}

/** Options of `read` and `mapfile` that take a value which is not a variable name. */
const VALUE_OPTIONS: Readonly<Record<string, string>> = {
  read: "pdtnNui",
  mapfile: "dnOsuCc",
  readarray: "dnOsuCc",
};

/** The words of a declaration, `read`, `printf -v`, `mapfile` or `getopts` that name variables it sets. */
function assignedWords(name: string, words: readonly Word[]): Word[] {
  if (name === "printf") {
    const v = words.findIndex((w) => w.text.startsWith("-v"));
    return v === -1
      ? []
      : words[v]!.text === "-v"
      ? words.slice(v + 1, v + 2)
      : [{ ...words[v]!, text: words[v]!.text.slice(2) }];
  }
  if (name === "getopts") return words.slice(1, 2);
  const takesValue = VALUE_OPTIONS[name] ?? "";
  const out: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!w.text.startsWith("-")) out.push(w);
    else if (takesValue.includes(w.text.at(-1)!) && w.text.length === 2) i++;
  }
  return out;
}

const DECLARES = new Set([
  "export",
  "declare",
  "typeset",
  "local",
  "readonly",
  "read",
  "mapfile",
  "readarray",
  "printf",
  "getopts",
]);

/**
 * What other commands of the line do to the git commands in it: a `git config` that writes a key
 * which may run something (the repository a later `git -C new` uses may be one this line made), or
 * an assignment to a variable git reads (`export GIT_CONFIG_COUNT=1`, `HOME=x;`, `printf -v "$v"`).
 */
export function gitLineRisks(judged: readonly Judged[]): string[] {
  const gits = judged.filter((j) => j.name === "git");
  if (gits.length === 0) return [];
  const risks: string[] = [];
  for (const j of gits) {
    const call = resolveGit(j.args);
    if (call.subcommand?.toLowerCase() !== "config" || j.command.readOnly || gits.length < 2) continue;
    const key = writtenKey(call.args);
    if (keyMayRun(key)) {
      risks.push(
        `${["git", ...j.args].join(" ")} writes git configuration (${
          key ?? "a key not told here"
        }) that the other git commands of the line may run`,
      );
    }
  }
  for (const j of judged) {
    // A bare assignment or a declaration (`export A=1` carries its assignments as env) lasts for the line.
    if (j.words.length > 0 && !DECLARES.has(j.name)) continue;
    // `declare -n r=HOME` makes `r=x` set HOME: the value of a name reference is a name too.
    const nameref = ["declare", "typeset", "local"].includes(j.name) &&
      j.words.some((w) => /^-[a-zA-Z]*n/.test(w.text));
    const refs = nameref ? Object.values(j.command.env) : [];
    const names = [
      ...Object.keys(j.command.env).map((name) => ({ name, dynamic: false })),
      ...refs.map((ref) => ({ name: ref, dynamic: !/^[A-Za-z_]\w*$/.test(ref) })),
      ...assignedWords(j.name, j.words.slice(1)).map((w) => ({
        name: w.text.split(/[=[+]/)[0]!,
        dynamic: w.dynamic,
      })),
    ];
    const hit = names.find((n) => n.dynamic || changesGit(n.name));
    if (hit) {
      risks.push(
        hit.dynamic
          ? `${j.name} assigns a variable whose name is known only when it runs: it may be one git reads`
          : `${hit.name} is set for the rest of the line: git reads it (configuration, the programs it runs)`,
      );
    }
  }
  return risks;
}
