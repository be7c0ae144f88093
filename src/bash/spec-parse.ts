/**
 * Reads a command's words against its spec (`spec.ts`) the way the real tool's option parser does,
 * and says whether every word has a read-only role, which paths it reads or writes, and which
 * words make it run other code. Anything the spec does not account for (an unknown or ambiguous
 * option, an extra operand, a glob that could expand into an option, an unknown subcommand) makes
 * the command not read-only.
 *
 * ```ts
 * const v = judgeWithSpec("sort", SPECS.sort!, words("sort --outp=/x f"));
 * v.readOnly;   // false: --outp is --output, which writes /x
 * v.paths;      // [{ path: "/x", access: "write" }, { path: "f", access: "read" }]
 * ```
 */
import type { Word } from "./command.ts";
import type { Access } from "./paths.ts";
import type { CommandSpec, OptionSpec, Role, Slot } from "./spec.ts";
import { checkValue, evaluationRisk } from "./spec-values.ts";

export interface SpecVerdict {
  /** Every word matched the spec with a read-only role. */
  readOnly: boolean;
  /** Why it is not read-only, in the order found. */
  reasons: string[];
  /** Why no prefix rule may cover it (a program or code it runs). */
  noAutoAllow: string[];
  /**
   * What it runs that no reading of its words can show: a program or code named in an option, a
   * file of code, a checker's finding that the code runs commands. Rules cannot see it.
   */
  unseen: string[];
  /** Shell command lines it runs (options with `shell`), for the analysis to read as code. */
  commandLines: { text: string; via: string }[];
  /** Why it prints secrets (also in `reasons`): no allow rule may approve it. */
  secrets: string[];
  paths: Access[];
  /** Words permission rules match: all of them, or without the global options (`rulesSkipGlobals`). */
  ruleWords: string[];
  /**
   * The words from the subcommand on, the options before it left out (`kubectl -n x delete pod` is
   * `kubectl delete pod`): what the command does, for deny and ask rules. Only for specs with subcommands.
   */
  commandWords?: string[];
  /** Options the spec does not know or cannot tell apart (`--zz`, an ambiguous `--f`), as written. */
  unreadOptions: string[];
  /** A word where a subcommand goes that the spec does not know: the words after it were not read. */
  unknownSubcommand?: string;
  /** The subcommands matched, outermost first (`["stash", "list"]`). */
  subcommands: string[];
  /**
   * The options read, in order, each by all its spellings (`--har` is read as `--hard`); an
   * ambiguous abbreviation is read as every option it could be.
   */
  options: ReadOption[];
  /** The operands of the last subcommand, and whether `--` came before each. */
  operands: { text: string; afterDashDash: boolean }[];
  /** An unquoted glob where a subcommand goes (`git pus*`): which subcommand runs depends on the files. */
  globSubcommand?: string;
}

/** One option as the tool's parser reads it. */
export interface ReadOption {
  names: readonly string[];
  /** Given in its `--no-` form. */
  negated: boolean;
  value?: string;
}

/** An option table built once per spec level: lookups by spelling. */
interface Table {
  short: Map<string, OptionSpec>;
  /** Long names without the dashes, for prefix matching. */
  long: Map<string, OptionSpec>;
  /** Whole words: single-dash long names (`-name`) and bare ones (`(`). */
  whole: Map<string, OptionSpec>;
  /** No option here has a role that matters if a file name from a glob became it. */
  globSafe: boolean;
  /** Some option here runs a program or code. */
  runs: boolean;
}

const tables = new WeakMap<CommandSpec, Table>();
const RESPONSE_FILE: OptionSpec = {
  names: ["@FILE"],
  why: "takes more arguments from that file (a response file): what they do is unknown",
};
/** Roles a file name from a glob may give an option (`tree` reads as `read` does, judged more closely). */
const HARMLESS_GLOB_ROLES = new Set<Role>(["plain", "read", "tree"]);

function tableOf(spec: CommandSpec, inherited: readonly OptionSpec[]): Table {
  const cached = tables.get(spec);
  if (cached) return cached;
  const table: Table = { short: new Map(), long: new Map(), whole: new Map(), globSafe: true, runs: false };
  for (const option of [...(spec.options ?? []), ...(spec.persistent ?? []), ...inherited]) {
    for (const name of option.names) {
      if (/^-[^-]$/.test(name)) table.short.set(name[1]!, option);
      else if (name.startsWith("--")) table.long.set(name.slice(2), option);
      else table.whole.set(name, option);
    }
    const roles = [option.role ?? "plain", ...(option.values ?? [])];
    const changed = Object.values(option.changes ?? {});
    if ([...roles, ...changed].some((r) => !HARMLESS_GLOB_ROLES.has(r))) {
      table.globSafe = false;
    }
    if (roles.some((r) => r === "program" || r === "code")) table.runs = true;
  }
  tables.set(spec, table);
  return table;
}

/** One value or flag whose role is judged once every word is read (`changes` may come later). */
interface Use {
  /** The option's first name or the slot's name: the key `changes` refers to. */
  key: string;
  role: Role;
  text: string;
  /** How it was written, for reasons (`--outp`, `operand 2`). */
  label: string;
  option?: OptionSpec;
  slot?: Slot;
  /** A flag (no value): its role is what giving it does. */
  flag?: boolean;
  /** For operands: all operands, and this one's place among them (checkers read neighbours). */
  siblings?: readonly string[];
  index?: number;
}

interface Level {
  spec: CommandSpec;
  /** Long-option style here: the level's own, or the one above it. */
  style: NonNullable<CommandSpec["long"]>;
  table: Table;
  persistent: readonly OptionSpec[];
}

type LongMatch = { option: OptionSpec; negated: boolean; name: string } | { ambiguous: string[] } | undefined;

/** `--name` (without dashes) as the tool resolves it: exact, `--no-` form (git), unique prefix. */
function resolveLong(name: string, table: Table, style: CommandSpec["long"]): LongMatch {
  const exact = table.long.get(name);
  if (exact) return { option: exact, negated: false, name };
  const negatable = style === "git";
  if (negatable && name.startsWith("no-")) {
    const positive = table.long.get(name.slice(3));
    if (positive) return { option: positive, negated: true, name };
  }
  if (style !== "gnu" && style !== "git" && style !== undefined) return undefined;
  const found = new Map<OptionSpec, { name: string; negated: boolean }>();
  for (const [long, option] of table.long) {
    if (long.startsWith(name)) found.set(option, { name: long, negated: false });
    else if (negatable && `no-${long}`.startsWith(name)) {
      found.set(option, { name: `no-${long}`, negated: true });
    }
  }
  if (found.size > 1) return { ambiguous: [...found.values()].map((f) => `--${f.name}`) };
  const [only] = found;
  return only ? { option: only[0], ...only[1] } : undefined;
}

const takesValue = (o: OptionSpec) => (o.arg !== undefined && o.arg !== "none") || o.values !== undefined;

/** Judges `name args...` (`words` without the command name) against `spec`. */
export function judgeWithSpec(name: string, spec: CommandSpec, words: readonly Word[]): SpecVerdict {
  const reasons: string[] = [];
  const uses: Use[] = [];
  const operands: Word[] = [];
  const subcommands: string[] = [];
  const read: ReadOption[] = [];
  /** How many operands came before `--`, once it is seen. */
  let beforeDashDash: number | undefined;
  let level: Level = {
    spec,
    style: spec.long ?? "gnu",
    table: tableOf(spec, []),
    persistent: spec.persistent ?? [],
  };
  let optionsOpen = true;
  let ruleStart = 0;
  let stopped = false;
  const label = () => [name, ...subcommands].join(" ");
  const refuse = (why: string) => reasons.push(why);
  /** Reasons no prefix rule may cover the command, found while reading the words. */
  const blocks: string[] = [];
  let globSubcommand: string | undefined;
  let unknownSubcommand: string | undefined;
  const unread: string[] = [];
  /** An unknown option where the spec says unknown options may run programs. */
  const unknown = (why: string, text: string) => {
    unread.push(text);
    refuse(why);
    if (level.spec.unknownOptionsRun) blocks.push(`${why}; it may run another program`);
  };

  const texts = words.map((w) => w.text);
  if (spec.oldStyleFirstWord && texts[0] !== undefined && /^[A-Za-z]+$/.test(texts[0])) {
    // `tar tzf a.tgz`: each letter's value is the next unused word.
    let next = 1;
    for (const letter of texts[0]) {
      const option = level.table.short.get(letter);
      if (!option) {
        refuse(`${name}: unknown option letter '${letter}' in ${texts[0]}`);
        continue;
      }
      if (takesValue(option) && option.arg !== "optional") {
        addValues(option, `-${letter}`, texts.slice(next, next + 1));
        read.push({
          names: option.names,
          negated: false,
          ...(next < texts.length ? { value: texts[next]! } : {}),
        });
        next++;
      } else {
        uses.push(flagUse(option, `-${letter}`));
        read.push({ names: option.names, negated: false });
      }
    }
    words = words.slice(next);
    texts.splice(0, next);
  }

  function flagUse(option: OptionSpec, given: string): Use {
    return {
      key: option.names[0]!,
      role: option.role ?? "plain",
      text: given,
      label: given,
      option,
      flag: true,
    };
  }

  function addValues(option: OptionSpec, given: string, values: readonly string[]): void {
    const roles = option.values ?? [option.role ?? "plain"];
    roles.forEach((role, i) => {
      const text = values[i];
      if (text === undefined) return refuse(`${label()} ${given} is missing its value`);
      uses.push({ key: option.names[0]!, role, text, label: given, option });
    });
  }

  /** Reads the option at `i`; returns how many words it used. */
  function readOption(i: number): number {
    const text = texts[i]!;
    const table = level.table;
    const style = level.style;
    const whole = table.whole.get(text);
    if (whole) return optionWithValue(whole, text, undefined, i);
    if (text.startsWith("--")) {
      const eq = text.indexOf("=");
      const bare = text.slice(2, eq === -1 ? undefined : eq);
      const attached = eq === -1 ? undefined : text.slice(eq + 1);
      const match = style === "none" ? undefined : resolveLong(bare, table, style);
      if (match === undefined) {
        unknown(`${label()}: unknown option ${text.slice(0, eq === -1 ? undefined : eq)}`, text);
        return 1;
      }
      if ("ambiguous" in match) {
        refuse(`${label()}: ${text} is ambiguous (${match.ambiguous.join(", ")})`);
        unread.push(text);
        for (const long of match.ambiguous) {
          const negated = long.startsWith("--no-") && !table.long.has(long.slice(2));
          const option = table.long.get(long.slice(negated ? 5 : 2));
          if (option) read.push({ names: option.names, negated });
        }
        return 1;
      }
      const given = `--${match.name}` === text ? text : `--${match.name} (written ${text})`;
      if (match.negated) {
        if (attached !== undefined) refuse(`${label()} --${match.name} takes no value`);
        read.push({ names: match.option.names, negated: true });
        return 1;
      }
      return optionWithValue(match.option, given, attached, i);
    }
    const eq = text.indexOf("=");
    if (eq > 2) {
      const singleDash = table.whole.get(text.slice(0, eq));
      if (singleDash) return optionWithValue(singleDash, text.slice(0, eq), text.slice(eq + 1), i);
    }
    if (level.spec.numberOption && /^-\d+$/.test(text)) return 1;
    if (level.spec.cluster === false && text.length > 2) {
      unknown(`${label()}: unknown option ${text}`, text);
      return 1;
    }
    for (let j = 1; j < text.length; j++) {
      const letter = text[j]!;
      const option = table.short.get(letter);
      if (!option) {
        unknown(`${label()}: unknown option -${letter}${text.length > 2 ? ` (in ${text})` : ""}`, text);
        return 1;
      }
      if (takesValue(option)) {
        // pflag and clap read `-f=VALUE` as VALUE; getopt would pass `=VALUE`. The tool reading the
        // shorter path is the one that can reach further, so exact-style tools drop the `=`.
        const rest = text.slice(j + (level.style === "exact" && text[j + 1] === "=" ? 2 : 1));
        return optionWithValue(option, `-${letter}`, rest === "" ? undefined : rest, i);
      }
      uses.push(flagUse(option, `-${letter}`));
      read.push({ names: option.names, negated: false });
    }
    return 1;
  }

  function optionWithValue(
    option: OptionSpec,
    given: string,
    attached: string | undefined,
    i: number,
  ): number {
    const value = attached ?? (takesValue(option) && option.arg !== "optional" ? texts[i + 1] : undefined);
    read.push({ names: option.names, negated: false, ...(value !== undefined ? { value } : {}) });
    if (option.until) {
      let end = i + 1;
      while (end < texts.length && !option.until.includes(texts[end]!)) end++;
      uses.push({ ...flagUse(option, given), text: texts.slice(i + 1, end).join(" ") });
      return end + 1 - i;
    }
    if (!takesValue(option)) {
      if (attached !== undefined && !(level.style === "exact" && /^(?:true|false)$/.test(attached))) {
        refuse(`${label()} ${given} takes no value`);
      }
      uses.push(flagUse(option, given));
      return 1;
    }
    if (attached !== undefined) {
      addValues(option, given, [attached, ...texts.slice(i + 1, i + (option.values?.length ?? 1))]);
      return option.values?.length ?? 1;
    }
    if (option.arg === "optional") {
      uses.push({ ...flagUse(option, given), flag: false, text: "" });
      return 1;
    }
    const count = option.values?.length ?? 1;
    addValues(option, given, texts.slice(i + 1, i + 1 + count));
    return 1 + count;
  }

  for (let i = 0; i < texts.length && !stopped;) {
    const word = words[i]!;
    const text = texts[i]!;
    if (spec.responseFiles && text.length > 1 && text.startsWith("@")) {
      // Expanded before any option is read; a FILE that cannot be opened stays the word itself.
      uses.push({ key: "@", role: "read", text: text.slice(1), label: "response file" });
      uses.push({ key: "@", role: "unchecked", text, label: text, flag: true, option: RESPONSE_FILE });
    }
    if (optionsOpen && text === "--" && level.spec.dashDash !== false) {
      optionsOpen = false;
      beforeDashDash = operands.length;
      i++;
      continue;
    }
    const optionLike = optionsOpen &&
      ((text.length > 1 && text.startsWith("-")) || level.table.whole.has(text));
    if (optionsOpen && word.glob && /^[-*?[]/.test(text) && !level.table.globSafe) {
      const why =
        `an unquoted glob in ${label()}'s arguments could expand to a file name that acts as an option`;
      refuse(why);
      if (level.table.runs) blocks.push(why);
    }
    if (optionsOpen && level.spec.plus && text.startsWith("+")) {
      const plus = level.spec.plus;
      uses.push({ key: "+", role: plus.role, text, label: text, option: { names: ["+"], ...plus } });
      i++;
      continue;
    }
    if (optionLike) {
      const known = level.table.whole.has(text) || !level.spec.unknownOptionsAreOperands || knownOption(text);
      if (known) {
        i += readOption(i);
        continue;
      }
    }
    if (level.spec.subcommands && operands.length === 0) {
      const sub = findSubcommand(level.spec, text);
      if (!sub) {
        refuse(`${label()} ${text}: not a subcommand known to only read`);
        // Rules match from the subcommand whatever it is (`git -C . "$(cat f)" origin`).
        if (subcommands.length === 0) ruleStart = i;
        if (words[i]!.glob) globSubcommand = `${label()} ${text}`;
        unknownSubcommand = text;
        if (
          level.spec.unknownOptionsRun && words.slice(i + 1).some((w) => w.glob && /^[-*?[]/.test(w.text))
        ) {
          blocks.push(
            `an unquoted glob in ${label()} ${text}'s arguments could expand to a file name that acts as an option`,
          );
        }
        stopped = true;
        break;
      }
      if (subcommands.length === 0) ruleStart = i;
      subcommands.push(text);
      const persistent = [...level.persistent, ...(sub.persistent ?? [])];
      level = {
        spec: sub,
        style: sub.long ?? level.style,
        table: tableOf(sub, level.persistent),
        persistent,
      };
      i++;
      continue;
    }
    operands.push(word);
    if (level.spec.permute === false) optionsOpen = false;
    i++;
  }

  function knownOption(text: string): boolean {
    if (text.startsWith("--")) return level.table.long.has(text.slice(2).split("=")[0]!);
    return [...text.slice(1)].every((c) => level.table.short.has(c));
  }

  if (!stopped) assignOperands(level.spec, operands, uses, refuse, label());
  const changes = new Map<string, Role>();
  let readMode = false;
  for (const use of uses) {
    // A write one option makes of a value stands, whatever option comes later (`--remove-files -c`).
    for (const [key, role] of Object.entries(use.option?.changes ?? {})) {
      if (changes.get(key) !== "write") changes.set(key, role);
    }
    if (use.option?.readMode) readMode = true;
  }
  const verdict: SpecVerdict = {
    readOnly: false,
    reasons,
    noAutoAllow: blocks,
    unseen: level.table.runs ? blocks.filter((b) => b.startsWith("an unquoted glob")) : [],
    commandLines: [],
    secrets: [],
    paths: [],
    ruleWords: [name, ...(spec.rulesSkipGlobals ? texts.slice(ruleStart) : texts)],
    ...(spec.subcommands ? { commandWords: [name, ...texts.slice(ruleStart)] } : {}),
    unreadOptions: unread,
    ...(unknownSubcommand !== undefined ? { unknownSubcommand } : {}),
    subcommands,
    options: read,
    operands: operands.map((w, k) => ({
      text: w.text,
      afterDashDash: beforeDashDash !== undefined && k >= beforeDashDash,
    })),
    ...(globSubcommand ? { globSubcommand } : {}),
  };
  const effect = level.spec.effect ?? "plain";
  if (effect !== "plain" && !readMode) {
    const why = level.spec.effectWhy;
    const slot = why === undefined ? {} : { slot: { role: effect, why } };
    judgeUse({ key: "", role: effect, text: "", label: "", flag: true, ...slot }, verdict, label());
  }
  let operandDir: string | undefined;
  for (const use of uses) {
    const role = changes.get(use.key) ?? use.role;
    if (use.option?.operandsIn && !use.flag && use.text !== "") operandDir = inDir(operandDir, use.text);
    const text = operandDir !== undefined && !use.option && !use.flag && use.text !== "-" && use.text !== ""
      ? inDir(operandDir, use.text)
      : use.text;
    judgeUse({ ...use, role, text }, verdict, label());
  }
  // What an archive holds is named only inside it: any file may be written (Edit rules meet that).
  const extracts = (level.spec.extracts && effect !== "plain" && !readMode) ||
    (!readMode && uses.some((u) => u.option?.extracts));
  if (extracts) verdict.paths.push({ path: "(the files the archive holds)", access: "write", runtime: true });
  verdict.readOnly = reasons.length === 0;
  return verdict;
}

/** `path` as seen from `dir` (none: as written). */
function inDir(dir: string | undefined, path: string): string {
  return dir === undefined || path.startsWith("/") || path.startsWith("~")
    ? path
    : `${dir.replace(/\/$/, "")}/${path}`;
}

function findSubcommand(spec: CommandSpec, text: string): CommandSpec | undefined {
  const subs = spec.subcommands!;
  if (Object.hasOwn(subs, text)) return subs[text];
  return Object.values(subs).find((s) => s.aliases?.includes(text));
}

const DEFAULT_OPERANDS: readonly Slot[] = [{ name: "files", role: "read", optional: true, repeat: true }];

/** Puts operands in their slots: slots before the repeating one from the left, after it from the right. */
function assignOperands(
  spec: CommandSpec,
  operands: readonly Word[],
  uses: Use[],
  refuse: (why: string) => void,
  label: string,
): void {
  const filled = new Set(uses.flatMap((u) => (u.option?.fills ? [u.option.fills] : [])));
  const slots = (spec.operands ?? DEFAULT_OPERANDS).filter((s) => !(s.name && filled.has(s.name)));
  const repeat = slots.findIndex((s) => s.repeat);
  const before = repeat === -1 ? slots : slots.slice(0, repeat);
  const after = repeat === -1 ? [] : slots.slice(repeat + 1);
  const placed: (Slot | undefined)[] = operands.map(() => undefined);
  let left = 0;
  for (const slot of before) {
    if (left >= operands.length) break;
    placed[left++] = slot;
  }
  let right = operands.length;
  for (let s = after.length - 1; s >= 0 && right > left; s--) placed[--right] = after[s];
  if (repeat !== -1) { for (let k = left; k < right; k++) placed[k] = slots[repeat]; }
  const siblings = operands.map((w) => w.text);
  operands.forEach((word, k) => {
    const slot = placed[k];
    if (!slot) return refuse(`${label}: extra operand ${word.text}`);
    if (slot.pattern !== undefined && !new RegExp(slot.pattern).test(word.text)) {
      return refuse(`${label}: operand ${word.text} is not of the form the command only reads with`);
    }
    uses.push({
      key: slot.name ?? "",
      role: slot.role,
      text: word.text,
      label: "operand",
      slot,
      siblings,
      index: k,
    });
  });
  // A slot no operand fills takes its implicit value (`grep -r x` searches `.`).
  const used = new Set(placed);
  for (const slot of slots) {
    if (slot.implicit !== undefined && !used.has(slot)) {
      uses.push({ key: slot.name ?? "", role: slot.role, text: slot.implicit, label: "implicit", slot });
    }
  }
}

function judgeUse(use: Use, v: SpecVerdict, label: string): void {
  const what = use.flag
    ? `${label}${use.label === "" ? "" : ` ${use.label}`}`
    : `${label} ${use.label} ${JSON.stringify(use.text)}`;
  const why = use.option?.why ?? use.slot?.why;
  const check = use.option?.check ?? use.slot?.check;
  const path = (access: "read" | "write", tree = false) => {
    if (use.text !== "-" && use.text !== "" && !use.flag) {
      // A tree role reads every file below; links count as followed, whatever the options say.
      v.paths.push({
        path: use.text,
        access,
        ...(tree ? { tree: { contents: true, follow: true, hidden: true } } : {}),
      });
    }
  };
  if (use.option?.listsFiles) {
    path("read");
    v.paths.push({
      path: `(the files ${use.text === "-" ? "its input" : use.text} names)`,
      access: "read",
      runtime: true,
    });
  }
  if (use.option?.codeFile) {
    path("read");
    v.reasons.push(`${what}: a file of code that cannot be checked`);
    if (use.role === "program") {
      v.noAutoAllow.push(`${label} ${use.label} ${why ?? "runs code from a file"}`);
      v.unseen.push(`${label} ${use.label} ${use.text} ${why ?? "runs code from a file"}`);
    }
    return;
  }
  switch (use.role) {
    case "plain":
      break;
    case "read":
      path("read");
      break;
    case "tree":
      path("read", true);
      break;
    case "write":
      path("write");
      v.reasons.push(`${what} ${why ?? "writes"}`);
      break;
    case "program": {
      v.reasons.push(`${what} ${why ?? "runs another program"}`);
      v.noAutoAllow.push(`${label} ${use.label} ${why ?? "runs another program"}`);
      const shell = use.option?.shell;
      // A flag runs a program the tool picks (a browser, gpg) or words the analysis unwraps (find -exec).
      if (use.flag) return;
      if (shell === undefined) v.unseen.push(`${what} ${why ?? "runs another program"}`);
      else if (shell === true) v.commandLines.push({ text: use.text, via: `${label} ${use.label}` });
      else if (use.text.startsWith(shell)) {
        v.commandLines.push({ text: use.text.slice(shell.length), via: `${label} ${use.label}` });
      }
      return;
    }
    case "code":
      if (!check) {
        v.reasons.push(`${what} ${why ?? "is code the command runs"}`);
        v.noAutoAllow.push(`${label} ${use.label} ${why ?? "runs code given as an argument"}`);
        v.unseen.push(`${what} ${why ?? "is code the command runs"}`);
        return;
      }
      break;
    case "secret":
      v.reasons.push(`${what} ${why ?? "prints secrets"}`);
      v.secrets.push(`${what} ${why ?? "prints secrets"}`);
      break;
    case "unchecked":
      v.reasons.push(`${what} ${why ?? "does something the analyzer does not follow"}`);
      break;
    case "network":
      v.reasons.push(`${what} ${why ?? "reaches the network"}`);
      break;
    case "service":
      // A read of the service the user's own configuration names (the registry, the cluster, GitHub)
      // is what these subcommands are for; what decides where they go (a project .npmrc, a
      // kubeconfig exec plugin, --server or --registry on the line) is judged on its own.
      break;
    case "varname":
    case "assign":
    case "arith": {
      if (use.role === "assign") v.reasons.push(`${what} ${why ?? "assigns a shell variable"}`);
      const risk = evaluationRisk(use.text, use.role);
      if (risk) {
        v.reasons.push(`${what}: ${risk}`);
        v.noAutoAllow.push(`${label} ${use.label}: ${risk}`);
      }
      break;
    }
  }
  if (use.option?.noPrefixRule) v.noAutoAllow.push(`${label} ${use.label} ${why ?? "changes files"}`);
  if (check) {
    const found = checkValue(check, use.text, use.siblings ?? [use.text], use.index ?? 0);
    if (found.problem) v.reasons.push(`${what}: ${found.problem}`);
    if (found.secret) {
      v.reasons.push(`${what}: ${found.secret}`);
      v.secrets.push(`${what}: ${found.secret}`);
    }
    if (found.runs) {
      v.reasons.push(`${what}: ${found.runs}`);
      v.noAutoAllow.push(`${label}: ${found.runs}`);
      if (found.hidden) v.unseen.push(`${what}: ${found.runs}`);
    }
    for (const p of found.paths ?? []) {
      v.paths.push(p);
      if (p.access === "write") v.reasons.push(`${what} writes ${p.path}`);
    }
  }
}
