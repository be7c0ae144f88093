/**
 * Deny and ask rules read for what a command may turn out to be: each word known only when it
 * runs (`$x`, `$(cmd)`, what xargs appends) stands for any words, each path whose place is not
 * known for any path. The sandbox stands in for a person only when no deny or ask rule could
 * match so; `$(echo git) push` or `cat list | xargs git` stays with the person when
 * `Bash(git push:*)` is denied. Pure.
 */
import { basename, resolve } from "node:path";
import { expandPattern, resolvePath } from "../tool/paths.ts";
import { hasPattern } from "../tool/shell-pattern.ts";
import type { CompiledRule } from "./compile-rule.ts";
import { stripAssignments } from "./command-pattern.ts";
import type { CommandTarget } from "./decide.ts";
import type { Policy } from "./policy.ts";
import type { DecisionRequest } from "./types.ts";

/** The first deny or ask rule that could match the call once its unknown words and paths are known. */
export function ruleThatMayMatch(
  request: DecisionRequest,
  policy: Policy,
  commands: readonly CommandTarget[],
): CompiledRule | undefined {
  const strict = policy.rules.filter((r) => r.meta.effect !== "allow");
  // A function defined in the line changes what its name runs: a rule about that name may be about it.
  const texts = [
    ...commands.flatMap((c) => (c.open ? openTexts(c) : [])),
    ...commands.flatMap(hiddenCommandTexts),
    ...(request.bash?.defines ?? []).flatMap((name) => [`${name}*`, `function ${name}*`]),
  ];
  for (const rule of texts.length > 0 ? policy.rulesFor(request.tool) : []) {
    if (rule.meta.effect === "allow" || !rule.command) continue;
    const globs = rule.command.globs;
    if (texts.some((text) => globs.some((glob) => globsMeet(glob, text)))) return rule;
  }
  const unknown = request.paths.filter((p) => p.unresolved !== undefined);
  const writable = mayWrite(request, commands, policy.state.home);
  const unknownBelow = request.paths.filter((p) => p.below !== undefined && p.access === "write");
  return strict.find((rule) =>
    rule.path !== undefined && (!rule.toolFilter || rule.toolFilter(request.tool)) &&
    (unknown.some((p) => rule.path!.family === "read" || p.access === "write") ||
      writable.some((path) => pathRuleMatches(rule, path)) ||
      (rule.path.family === "edit" && unknownBelow.some((p) => mayBeBelow(rule, p.path))))
  );
}

/**
 * Files a command that is not read-only may write though no spec says so: the paths it reads
 * (`perl -pi -e s/a/b/ a.txt`, `patch a.txt`, `vim -c wq a.txt` edit their operands in place) and
 * names inside its words (`python3 -c 'open("a.txt","w")'`). Edit deny and ask rules, and read
 * ones (which block writes too), meet them. Paths a spec knows are written are matched as such.
 */
function mayWrite(request: DecisionRequest, commands: readonly CommandTarget[], home: string): string[] {
  const writers = commands.filter((c) => !c.readOnly);
  if (writers.length === 0) return [];
  const names = new Set(writers.map((c) => basename(c.argv[0] ?? "")));
  const read = request.paths.filter((p) => p.access === "read" && names.has(basename(p.command ?? "")));
  const inner = writers.flatMap((c) => c.argv.slice(1).flatMap(innerWords));
  // A pattern (`perl -pi -e ... *.txt`) is each file it matches now.
  const resolved = inner.flatMap((word) => {
    const one = resolvePath(word, { cwd: request.cwd, home });
    if (one.unresolved) return [];
    if (!hasPattern(word)) return [one.path];
    return (expandPattern(one.raw) ?? []).map((file) => resolve(request.cwd, file));
  });
  return [...new Set([...read.flatMap((p) => (p.target ? [p.path, p.target] : [p.path])), ...resolved])];
}

/** Whether an Edit rule may cover some file below `dir`: its literal part and `dir` overlap. */
function mayBeBelow(rule: CompiledRule, dir: string): boolean {
  const { prefix } = rule.path!;
  return prefix.startsWith(dir.endsWith("/") ? dir : `${dir}/`) || dir.startsWith(prefix) || prefix === dir;
}

function pathRuleMatches(rule: CompiledRule, path: string): boolean {
  const { regex, prefix, except } = rule.path!;
  return path.startsWith(prefix) && regex.test(path) && !except?.some((e) => e.test(path));
}

/**
 * What deny and ask rules are matched against (see `commandMatches`), with the unknown words as `*`;
 * and what follows each unknown word, as a command of its own: a run-time value may be the end of a
 * wrapper's options (`timeout $t git push` runs `git push`).
 */
function openTexts(command: CommandTarget): string[] {
  const { ruleText, argv } = command.open!;
  const texts = [ruleText, stripAssignments(ruleText), argv, ...(command.open!.meanings ?? [])];
  if (command.via !== undefined) texts.push(`${command.via} ${argv}`);
  for (const star of argv.matchAll(/\*/g)) {
    const rest = argv.slice(star.index + 1);
    if (rest !== "") texts.push(rest);
  }
  return texts;
}

/**
 * What a command may run that its rule text does not show, for deny and ask rules to meet: any later
 * word may start a command a program runs (`valgrind curl`, `npx curl`, an unknown wrapper); its
 * words without the options (`npm --registry=x publish`); a name by its last path part; a pattern
 * in a word as what it may expand to (`/usr/*\/curl`, `cur?`). Inside a word, an assignment's value
 * or the text fed to the command's input, a command may start after any blank or punctuation: editors,
 * pagers and interpreters run what their options, environment and input say
 * (`vim -c '!curl x'`, `LESSOPEN='|curl x %s'`, `emacs --eval '(shell-command "curl x")'`,
 * `sed 's/a/curl x/e'`, `ed <<< '!curl x'`); inline code that builds its command while it runs
 * (`os.system("cu" + "rl x")`) may run any. (npm's abbreviated commands are matched in full by
 * `commandMatches`.)
 */
function hiddenCommandTexts(command: CommandTarget): string[] {
  const words = command.argv.map(asPattern);
  const texts: string[] = [];
  const commandAt = (list: string[]) => {
    if (list.length === 0) return;
    const [name, ...rest] = list;
    texts.push(list.join(" "), [name!.replace(/^.*\//, ""), ...rest].join(" "));
  };
  for (let i = 0; i < words.length; i++) {
    commandAt(words.slice(i));
    const inner = innerWords(command.argv[i]!).map(asPattern);
    for (let k = 0; k < inner.length; k++) commandAt([...inner.slice(k), ...words.slice(i + 1)]);
  }
  const plain = words.filter((w) => !w.startsWith("-"));
  commandAt(plain);
  // Code that builds the command it runs, or code loaded from files (`LD_PRELOAD=./x.so ls`), may
  // run any: every command rule could match.
  if (command.runsComputed) texts.push("*");
  for (const text of [...(command.envValues ?? []), ...(command.input ? [command.input] : [])]) {
    const inner = innerWords(text).map(asPattern);
    for (let k = 0; k < inner.length; k++) commandAt(inner.slice(k));
  }
  return texts;
}

/** Where a command may start inside a word: after blanks and the punctuation of shells and code. */
const INNER_BOUNDARY = /[\s|&;()<>!`'"{}=+,:/\\$[\]]+/;
/** A word that holds more than a name or a path: text some program may read as commands. */
const HOLDS_CODE = /[\s|&;()<>!`'"{}=+,:\\$]/;

/**
 * The parts of a word between blanks and punctuation (`'|curl x %s'` is `curl`, `x`, `%s`); a
 * name or path (`src/*.ts`) is one part.
 */
function innerWords(word: string): string[] {
  return HOLDS_CODE.test(word) ? word.split(INNER_BOUNDARY).filter((w) => w !== "") : [word];
}

/** A word with the shell's pattern characters as `*` (it may expand to any name they match). */
function asPattern(word: string): string {
  return word.replace(/\[[^\]]*\]|[?*]/g, "*");
}

/**
 * Whether some string matches both patterns, where `*` stands for any characters (none too) and
 * everything else for itself. Dynamic programming from the ends: `meet[j]` says whether the rest
 * of `a` from `i` and the rest of `b` from `j` have a string in common.
 */
export function globsMeet(a: string, b: string): boolean {
  let next: boolean[] = new Array(b.length + 1).fill(false);
  for (let i = a.length; i >= 0; i--) {
    const meet: boolean[] = new Array(b.length + 1).fill(false);
    for (let j = b.length; j >= 0; j--) {
      if (i === a.length && j === b.length) meet[j] = true;
      else if (i < a.length && a[i] === "*") meet[j] = next[j]! || (j < b.length && meet[j + 1]!);
      else if (j < b.length && b[j] === "*") meet[j] = meet[j + 1]! || (i < a.length && next[j]!);
      else meet[j] = i < a.length && j < b.length && a[i] === b[j] && next[j + 1]!;
    }
    next = meet;
  }
  return next[0]!;
}
