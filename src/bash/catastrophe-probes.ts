/**
 * The catastrophe and work-loss tables asked again with each word known only at run time given a
 * value that makes commands catastrophic or lose work: what `rm -rf "$d"`, `kill $pid` or
 * `git reset $mode` may turn out to be. The tables themselves judge only what a command surely is;
 * this says what it may be, so that nothing an unknown value could make so runs without a person.
 */
import { findCatastrophes } from "./catastrophic.ts";
import type { FunctionDefinition, Judged, Word } from "./command.ts";
import { placeCommands } from "./cwd.ts";
import { hasUnknownPart, textWithValue, withValue } from "./runtime-words.ts";
import type { Catastrophe, WorkLoss } from "./types.ts";
import type { Where } from "./targets.ts";
import { WORK_LOSS, workLossOf } from "./work-loss.ts";

/**
 * Values an unknown word is tried with: the root, the home directory, options that make a
 * deletion recursive, a disk, every process and init, files the system runs or trusts.
 */
const PROBE_VALUES: readonly string[] = [
  "/",
  "~",
  "-rf /",
  "/dev/sda",
  "-1",
  "1",
  "-9 -1",
  "/etc/cron.d/x",
  "/etc/passwd",
];

/** The git words of every work-loss example (`reset --hard`, `push --force` …): a run-time word may be any of them. */
const WORK_LOSS_VALUES: readonly string[] = [
  ...new Set(
    WORK_LOSS.flatMap((e) => e.examples.found).flatMap((example) => {
      const rest = example.replace(/^\S+\s+/, "");
      // A quoted unknown word is one word: each word of the examples alone too (`git "$(x)" --hard`).
      return [rest, ...rest.split(/\s+/).filter((w) => /^[\w-]+$/.test(w))];
    }),
  ),
];

const open = (j: Judged) =>
  j.words.some((w) => w.dynamic) || j.command.via === "xargs" || hasUnknownPart(j.chdir ?? "");

/** Catastrophes the command is for some value of its unknown words, each saying which value. */
export function catastrophesForSomeValue(
  raw: string,
  judged: readonly Judged[],
  functions: readonly FunctionDefinition[],
  where?: Where,
): Catastrophe[] {
  if (!judged.some(open)) return [];
  const found = new Map<string, Catastrophe>();
  for (const value of PROBE_VALUES) {
    const probed = judged.map((j) => withValues(j, value));
    placeCommands(probed);
    for (const c of findCatastrophes(raw, probed, functions, where)) {
      if (!found.has(c.id)) {
        found.set(c.id, { ...c, reason: `${c.reason}, if its unknown words were ${JSON.stringify(value)}` });
      }
    }
  }
  return [...found.values()];
}

/** Work a command may lose for some value of its unknown words (`git reset $mode`), each saying which value. */
export function workLossForSomeValue(judged: readonly Judged[]): WorkLoss[] {
  const found = new Map<string, WorkLoss>();
  for (const j of judged.filter(open)) {
    for (const value of WORK_LOSS_VALUES) {
      for (const loss of workLossOf(withValues(j, value))) {
        if (!found.has(loss.id)) {
          found.set(loss.id, {
            ...loss,
            name: `${loss.name}, if its unknown words were ${JSON.stringify(value)}`,
          });
        }
      }
    }
  }
  // An unquoted pattern is whatever file names it matches: a file `--hard` makes `git reset --h*`
  // a hard reset (verified). Each value of the examples it could match is tried in its place.
  for (const j of judged.filter((j) => j.words.some((w, i) => i > 0 && w.glob && !w.quoted))) {
    j.words.forEach((word, i) => {
      if (i === 0 || !word.glob) return;
      const pattern = globRegex(word.text);
      for (const value of GLOB_VALUES.filter((v) => pattern.test(v))) {
        const words = j.words.map((w, k) => (k === i ? { ...w, text: value, glob: false } : w));
        for (const loss of workLossOf({ ...j, words, args: words.slice(1).map((w) => w.text) })) {
          if (!found.has(loss.id)) {
            found.set(loss.id, {
              ...loss,
              name: `${loss.name}, if ${word.text} matched a file named ${value}`,
            });
          }
        }
      }
    });
  }
  return [...found.values()];
}

/** Single words of the examples a pattern could stand for (`--hard`, `-f`, `reset`). */
const GLOB_VALUES = WORK_LOSS_VALUES.filter((v) => !v.includes(" "));

/** A shell pattern as a regular expression over one file name (`*`, `?`, bracket expressions). */
function globRegex(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const close = c === "[" ? pattern.indexOf("]", i + 2) : -1;
    if (c === "*") source += ".*";
    else if (c === "?") source += ".";
    else if (close !== -1) {
      const body = pattern.slice(i + 1, close).replace(/^!/, "^").replace(/\\/g, "\\\\");
      source += `[${body}]`;
      i = close;
    } else source += c.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** What xargs reads from its input, as one more unknown word. */
const XARGS_INPUT: Word = { text: "$XARGS_INPUT", quoted: false, glob: false, dynamic: true };

/** A copy of `j` with every unknown part of its arguments, paths, redirections and directory set to `value`. */
function withValues(j: Judged, value: string): Judged {
  const [name, ...rest] = j.words;
  // xargs appends what it reads to the command's words.
  const appended = j.command.via === "xargs" ? [XARGS_INPUT] : [];
  const words = name
    ? [name, ...[...rest, ...appended].flatMap((w) => (w.dynamic ? withValue(w, value) : [w]))]
    : [];
  const copy: Judged = {
    ...j,
    args: words.slice(1).map((w) => w.text),
    words,
    raw: {
      ...j.raw,
      words: j.raw.words.flatMap((w) => (w.dynamic ? withValue(w, value) : [w])),
      redirects: j.raw.redirects.map((r) => ({ ...r, target: textWithValue(r.target, value) })),
    },
    paths: j.paths.map((p) => ({ ...p, path: textWithValue(p.path, value) })),
  };
  if (j.chdir !== undefined) copy.chdir = textWithValue(j.chdir, value);
  delete copy.dirs;
  delete copy.oldDirs;
  return copy;
}
