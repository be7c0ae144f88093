/**
 * A command as its program reads it, for deny and ask rules, which hold for what a command does
 * and not for one spelling of it:
 * - a program under another name is that program (`pip3`, `python3 -mpip` are pip);
 * - options before the subcommand are left out (`kubectl -n x delete pod` is `kubectl delete pod`),
 *   for every spec with subcommands;
 * - a package runner's command is what it runs too (`npm x -- npm i`, `uv run pip install`,
 *   `npm run env -- npm i`: `package-runners.ts`);
 * - npm's commands by every alias and abbreviation, and as each command they perform
 *   (`npm it` installs, `npm t` runs a script: `npm-commands.ts`), docker's under each of their
 *   names (`docker container remove` is `docker rm`: `docker-commands.ts`), git's plumbing as porcelain;
 * - a rule's options are read through the command's spec, as the tool reads them: clusters split,
 *   long options by unique prefix, other spellings of one option (`-R` is `-r`), in any order
 *   (`Bash(rm -rf:*)` holds for `rm -fr`, `rm -r -f`, `rm --recu --forc`).
 *
 * Allow rules never see these forms: they match the command as written, never more broadly.
 */
import { plainWord } from "./command.ts";
import { dockerCommandTexts } from "./docker-commands.ts";
import { gitCommandTexts } from "./git.ts";
import { npmCommandTexts } from "./npm-commands.ts";
import { runnerStart } from "./package-runners.ts";
import { judgeWithSpec, type ReadOption, type SpecVerdict } from "./spec-parse.ts";
import { specFor } from "./specs/index.ts";

/** `pip`, `pip3`, `pip3.11`: pip. */
const PIP = /^pip[\d.]*$/;
/** CPython and PyPy: `python -m pip` runs pip. */
const PYTHON = /^(?:python|pypy)[\d.]*$/;
/** CPython's options that take a value (`-W arg`, `-X opt`); `-c` and `-m` end the options. */
const PYTHON_VALUE = new Set(["W", "X"]);

const lastPart = (word: string) => word.slice(word.lastIndexOf("/") + 1);

/**
 * The words as the program they run under another name (`pip3 install x`, `python3 -I -m pip
 * install x` and `uv pip install x` are `pip install x`), or undefined.
 */
export function asProgram(words: readonly string[]): string[] | undefined {
  const name = lastPart(words[0] ?? "");
  if (PIP.test(name)) return name === "pip" ? undefined : ["pip", ...words.slice(1)];
  if (name === "uv" && words[1] === "pip") return ["pip", ...words.slice(2)];
  if (!PYTHON.test(name)) return undefined;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith("-") || word === "-" || word.startsWith("--")) return undefined;
    for (let j = 1; j < word.length; j++) {
      const letter = word[j]!;
      if (letter === "c") return undefined;
      if (letter === "m") {
        const attached = word.slice(j + 1);
        const module = attached === "" ? words[i + 1] : attached;
        const rest = words.slice(attached === "" ? i + 2 : i + 1);
        return module === "pip" ? ["pip", ...rest] : undefined;
      }
      if (PYTHON_VALUE.has(letter)) {
        if (j === word.length - 1) i++;
        break;
      }
    }
  }
  return undefined;
}

/** The words from the subcommand on, options before it left out, when the program's spec has subcommands. */
function withoutGlobals(words: readonly string[]): string[] | undefined {
  if (!words[1]?.startsWith("-")) return undefined;
  const spec = specFor(words[0]!);
  if (!spec?.subcommands) return undefined;
  return judgeWithSpec(words[0]!, spec, words.slice(1).map(plainWord)).commandWords;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const MAX_RUNNERS = 8;

/**
 * Each reading of a command's words (the rule words of `SimpleCommand`) as what it does, itself
 * first; for a package runner (`npm x -- npm i`), the readings of the command it runs too.
 */
export function commandForms(words: readonly string[], depth = 0): string[][] {
  const forms: string[][] = [[...words]];
  const aliased = asProgram(words);
  if (aliased) forms.push(aliased);
  for (const form of [...forms]) {
    const stripped = withoutGlobals(form);
    if (stripped && stripped.length < form.length) forms.push(stripped);
  }
  // Each command under its canonical names (`npm i` is `npm install`, `docker container rm` is `docker rm`).
  for (const form of [...forms]) {
    const texts = [...npmCommandTexts(form), ...gitCommandTexts(form), ...dockerCommandTexts(form)];
    forms.push(...texts.map((text) => text.split(" ")));
  }
  const run = runnerStart(lastPart(words[0] ?? ""), words);
  if (run && "at" in run && depth < MAX_RUNNERS) {
    let inner = words.slice(run.at);
    // `npm run env -- A=1 cmd` runs `env A=1 cmd`.
    if (run.prefix === "env") inner = inner.slice(inner.findIndex((w) => !ASSIGNMENT.test(w)));
    if (inner.length > 0 && !ASSIGNMENT.test(inner[0]!)) forms.push(...commandForms(inner, depth + 1));
  }
  // `npx -c 'npm i && x'`: each command of the line it hands a shell, by its plain words.
  if (run && "shell" in run && depth < MAX_RUNNERS) {
    for (const part of run.shell.split(/[;&|\n()]+/)) {
      const inner = part.trim().split(/\s+/).filter((w) => w !== "" && !ASSIGNMENT.test(w));
      if (inner.length > 0) forms.push(...commandForms(inner, depth + 1));
    }
  }
  return forms;
}

/** The texts deny and ask rules match besides the command as written (see the module comment). */
export function meaningTexts(words: readonly string[]): string[] {
  const texts = new Set(commandForms(words).map((form) => form.join(" ")));
  texts.delete(words.join(" "));
  return [...texts];
}

/** A rule whose words hold options, read through the program's spec (see `optionRuleMeets`). */
export interface OptionRule {
  words: readonly string[];
  /** The rule ends in `:*` or ` *`: more words may follow. */
  tail: boolean;
}

/** Characters that make a rule more than plain words (wildcards, quoting, expansions). */
const NOT_PLAIN = /[*?[\]'"\\$`{}()<>|;&]/;

/** The rule's words when it is plain words holding an option (`rm -rf:*`), else undefined. */
export function optionRuleOf(specifier: string): OptionRule | undefined {
  let text = specifier.trim();
  let tail = false;
  if (text.endsWith(":*")) [text, tail] = [text.slice(0, -2).trimEnd(), true];
  else if (text.endsWith(" *")) [text, tail] = [text.slice(0, -2).trimEnd(), true];
  if (text === "" || NOT_PLAIN.test(text)) return undefined;
  const words = text.split(/\s+/);
  const program = asProgram(words) ?? words;
  if (!program.slice(1).some((w) => w.length > 1 && w.startsWith("-") && w !== "--")) return undefined;
  return { words: program, tail };
}

/** How a rule with options meets a command: it does, it does not, or the options cannot be read. */
export type OptionMeeting = "meets" | "misses" | "unsure";

interface Reading {
  program: string;
  subcommands: string[];
  options: ReadOption[];
  operands: string[];
  unread: string[];
  /** The subcommand the spec does not know, where it stopped: the words after it were not read. */
  stopped?: string;
}

function read(words: readonly string[]): Reading | undefined {
  const spec = specFor(words[0] ?? "");
  if (!spec) return undefined;
  const v: SpecVerdict = judgeWithSpec(words[0]!, spec, words.slice(1).map(plainWord));
  return {
    program: words[0]!,
    subcommands: v.subcommands,
    options: v.options,
    operands: v.operands.map((o) => o.text),
    unread: v.unreadOptions,
    ...(v.unknownSubcommand !== undefined ? { stopped: v.unknownSubcommand } : {}),
  };
}

/** Each rule read once: rules are compiled once and matched against every command. */
const ruleReadings = new WeakMap<OptionRule, Reading | undefined>();
/** Each command form read once: a decision matches every option rule against the same forms, twice. */
const formReadings = new WeakMap<readonly string[], Reading | undefined>();

function readForm(form: readonly string[]): Reading | undefined {
  if (!formReadings.has(form)) formReadings.set(form, read(form));
  return formReadings.get(form);
}

const sameOption = (rule: ReadOption, given: ReadOption) =>
  given.names[0] === rule.names[0] && given.negated === rule.negated &&
  (rule.value === undefined || given.value === rule.value);

/**
 * Whether a deny or ask rule with options holds for a command, reading both through the program's
 * spec: the same program and subcommands, every option of the rule among the command's (extra
 * options allowed), the rule's operands first (all of them without a tail). A command of another
 * subcommand misses. A command whose options the spec cannot read (unknown, ambiguous, a program
 * without a spec, the rule's subcommand unknown to the spec) is `unsure` when it has options at
 * all: it may be what the rule names.
 */
export function optionRuleMeets(rule: OptionRule, forms: readonly (readonly string[])[]): OptionMeeting {
  let unsure = false;
  if (!ruleReadings.has(rule)) ruleReadings.set(rule, read(rule.words));
  const ruleReading = ruleReadings.get(rule);
  for (const form of forms) {
    if (lastPart(form[0] ?? "") !== rule.words[0]) continue;
    const hasOptions = form.slice(1).some((w) => w.length > 1 && w.startsWith("-"));
    const reading = readForm(form);
    if (!ruleReading || ruleReading.unread.length > 0 || !reading) {
      unsure ||= hasOptions;
      continue;
    }
    // Another subcommand is another command; where a subcommand is unknown, what follows is unread.
    const path = (r: Reading) => [...r.subcommands, ...(r.stopped === undefined ? [] : [r.stopped])];
    const [rulePath, givenPath] = [path(ruleReading), path(reading)];
    if (rulePath.some((s, i) => i < givenPath.length && givenPath[i] !== s)) continue;
    if (ruleReading.stopped !== undefined || reading.stopped !== undefined) {
      unsure ||= hasOptions;
      continue;
    }
    const subs = ruleReading.subcommands;
    if (subs.some((s, i) => reading.subcommands[i] !== s)) continue;
    if (reading.subcommands.length !== subs.length && ruleReading.operands.length > 0) continue;
    const operands = ruleReading.operands;
    const operandsMeet = operands.every((o, i) => reading.operands[i] === o) &&
      (rule.tail || reading.operands.length === operands.length);
    if (!operandsMeet) continue;
    if (ruleReading.options.every((o) => reading.options.some((g) => sameOption(o, g)))) return "meets";
    unsure ||= reading.unread.length > 0;
  }
  return unsure ? "unsure" : "misses";
}
