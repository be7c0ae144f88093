/**
 * The Bash analyzer: parse, unwrap, judge, check. Pure apart from loading the parser once.
 *
 * ```ts
 * const a = await analyzeBash("git status && rm -rf /");
 * a.parse;        // "simple"
 * a.catastrophic; // [{ id: "rm-root", reason: "..." }]
 * ```
 */
import type { Parser } from "web-tree-sitter";
import { catastrophesForSomeValue, workLossForSomeValue } from "./catastrophe-probes.ts";
import { findCatastrophes, isCriticalTarget } from "./catastrophic.ts";
import { runChecks, walkedCheck } from "./checks.ts";
import { joinContinuations } from "./continuation.ts";
import { inDirs, placeCommands } from "./cwd.ts";
import { evaluatedWords, evaluationRisk, hiddenSubstitutions } from "./evaluation.ts";
import { computedReads, computedRuns, inlineCode, readsLanguage, shellPayloads } from "./inline-code.ts";
import { codeLoadedByLine, loadsNativeCode } from "./code-loading.ts";
import { helperPrograms } from "./helper-programs.ts";
import { readPatchApply } from "./patch-apply.ts";
import { printedSecrets } from "./secret-output.ts";
import { arithmeticOnUnknownValues, assignedCode, builtinAssignedCode } from "./shell-values.ts";
import { specFor } from "./specs/index.ts";
import { classify } from "./classify.ts";
import type { Judged, RawCommand, WalkResult, Word } from "./command.ts";
import { printedConfig } from "./git-printed-config.ts";
import { bashParserLoadError, loadBashParser, loadedBashParser } from "./parser.ts";
import type { Access } from "./paths.ts";
import { commandPrefix, suggestRules } from "./prefix.ts";
import { judge, programFromStdin } from "./rules.ts";
import { hasUnknownPart, opaqueParts, openTexts } from "./runtime-words.ts";
import { conservativeSplit, plainWords } from "./tokenize.ts";
import { resolveGit } from "./git.ts";
import { gitLineRisks, gitRuns } from "./git-runs.ts";
import { historyRead } from "./git-history.ts";
import { GIT_COMMANDS } from "./specs/git-commands.ts";
import { optionsOf, type TreeRead, treeRead } from "./recursion.ts";
import { TOOLCHAIN_PROGRAMS } from "./toolchains.ts";
import type { Where } from "./targets.ts";
import type {
  BashAnalysis,
  Catastrophe,
  CheckHit,
  ParseOutcome,
  PatchUse,
  Redirect,
  RemoteUse,
  RepositoryUse,
  SimpleCommand,
  WorkLossIfExists,
} from "./types.ts";
import { quoteViews } from "./views.ts";
import { unknownVariable, walkedThrough, walkTree } from "./walker.ts";
import { destructiveWarnings } from "./warnings.ts";
import { workLossIfPath, workLossOf } from "./work-loss.ts";
import {
  basename,
  type Invocation,
  isSafeAssignment,
  type Script,
  SHELLS,
  stdinScript,
  stdinText,
  unwrap,
} from "./wrappers.ts";

/** Above this many sub-commands the analyzer stops judging them one by one: ask. */
export const MAX_SUBCOMMANDS = 50;
/** Longer commands are not parsed; they are read roughly (for deny rules) and always ask. */
const MAX_PARSE_CHARS = 128 * 1024;
const MAX_SCRIPT_DEPTH = 3;
const PRINTERS = new Set(["echo", "printf"]);
const HARMLESS_TARGET = /^(?:\/dev\/(?:null|stdout|stderr|tty|fd\/[012])|&?-|&?\d+)$/;

/** Analyzes one command, loading the parser first when the command is not plain words. */
export async function analyzeBash(command: string): Promise<BashAnalysis> {
  if (plainWords(command) === null && loadedBashParser() === undefined) await loadBashParser();
  return analyzeBashSync(command);
}

/**
 * Synchronous analysis with whatever parser is loaded. Call `await loadBashParser()` once first:
 * without the parser, commands that are not plain words come out `parse-unavailable` (ask).
 */
export function analyzeBashSync(command: string): BashAnalysis {
  return analyzeWith(command, loadedBashParser() ?? null);
}

/** The analysis with an explicit parser; null exercises the fallback path. */
export function analyzeWith(command: string, parser: Parser | null): BashAnalysis {
  const inner = analyzeInner(command, parser, 0);
  const { judged, complex } = inner;
  const commands = judged.map((j) => j.command);
  const topLevel = judged.filter((j) => j.raw.nested === undefined).length;
  const askReasons = [...complex];
  if (inner.unparsed) askReasons.push(inner.unparsed);
  if (topLevel > MAX_SUBCOMMANDS) {
    askReasons.push(`more than ${MAX_SUBCOMMANDS} sub-commands (${topLevel}); too many to check one by one`);
  }
  if (command.trim() === "") askReasons.push("empty command");
  for (const j of judged) {
    if (j.name === "rm" || j.name === "rmdir") {
      const critical = j.paths.find((p) => p.access === "write" && isCriticalTarget(p.path));
      if (critical) {
        askReasons.push(`deletes a critical path (${critical.path}); always needs explicit approval`);
      }
    }
  }
  const parse: ParseOutcome = inner.unparsed !== undefined && parser === null && !inner.tooLong
    ? "parse-unavailable"
    : complex.length > 0 || inner.unparsed !== undefined || topLevel > MAX_SUBCOMMANDS
    ? "too-complex"
    : "simple";
  const readOnly = parse === "simple" && askReasons.length === 0 && inner.checks.length === 0 &&
    commands.length > 0 && commands.every((c) => c.readOnly);
  const single = commands.length === 1 ? commands[0]! : undefined;
  const createsFiles = commands.some((c) => !c.readOnly);
  return {
    command,
    parse,
    commands,
    checks: inner.checks,
    readOnly,
    classification: parse === "simple" ? classify(judged) : "other",
    warnings: destructiveWarnings(judged),
    prefix: single?.prefix ?? null,
    suggestions: parse === "simple" && inner.checks.length === 0 && askReasons.length === 0 &&
        inner.catastrophic.length === 0
      ? suggestRules(commands)
      : [],
    paths: judged.flatMap((j) =>
      j.paths.map((p) => ({
        command: j.name,
        path: p.path,
        access: p.access,
        ...(p.glob ? { glob: true } : {}),
        ...(p.runtime || hasUnknownPart(p.path) ||
            (createsFiles && p.glob && p.access === "read" && mayExpandToOption(p.path))
          ? { runtime: true }
          : {}),
        ...(p.tree ? { tree: p.tree } : {}),
      }))
    ),
    ...repositoriesOf(judged),
    ...toolchainsOf(judged),
    catastrophic: inner.catastrophic,
    workLoss: judged.flatMap((j) => j.workLoss ?? []),
    ...workLossIfExists(judged),
    ...remotesOf(judged),
    ...patchesOf(judged),
    askReasons,
    opaque: [...new Set([...inner.opaque, ...askReasons.filter((r) => !walkedThrough(r))])],
    defines: inner.defines,
  };
}

/**
 * A pattern with no folder before its first wildcard (`*`, `?.txt`, `*` + `/x`) may expand to a name
 * starting with `-`, which the command reads as an option (`grep KEY *` beside a file `-R` recurses).
 * The files present are judged when the command is checked; a line that also runs a command that may
 * create files (`touch ./-R; grep KEY *`) makes what it expands to known only when it runs.
 */
function mayExpandToOption(pattern: string): boolean {
  return /^[*?[]/.test(pattern);
}

/**
 * The catastrophes of a command line run in `where`: the analysis itself does not know where it
 * runs, so `rm -rf ../..` from a workspace two levels below the home, `rm -rf /home/me` or
 * `rm -rf ~+/../../../*` are only found with the directory and the home (`buildRequest` asks).
 */
export function catastrophesAt(command: string, where: Where): Catastrophe[] {
  return analyzeInner(command, loadedBashParser() ?? null, 0, where).catastrophic;
}

/** Every directory a command runs in whose program a toolchain file there may pick. */
function toolchainsOf(judged: Judged[]): { toolchains?: { command: string; dir: string }[] } {
  const uses = judged.filter((j) => TOOLCHAIN_PROGRAMS.has(j.name)).flatMap((j) =>
    (j.dirs ?? ["."]).map((dir) => ({ command: j.name, dir }))
  );
  return uses.length > 0 ? { toolchains: uses } : {};
}

/** A path a command names, seen from every directory it may run in (`placeCommands`). */
function fromPlaces(j: Judged, path: string): string[] {
  return inDirs(path, { dirs: j.dirs ?? ["."], oldDirs: j.oldDirs ?? ["~-"] });
}

/** Work each git command loses if one of its words names a file, as paths from where it may run. */
function workLossIfExists(judged: Judged[]): { workLossIfExists?: WorkLossIfExists[] } {
  const found = judged.flatMap((j, index) =>
    workLossIfPath(j).map(({ path, start, ...loss }) => {
      const from = start === "." || /^[/~]/.test(path) ? path : `${start}/${path}`;
      return { ...loss, index, paths: fromPlaces(j, from) };
    })
  );
  return found.length > 0 ? { workLossIfExists: found } : {};
}

/** git remotes reached by name, with where git runs from every directory the command may run in. */
function remotesOf(judged: Judged[]): { remotes?: RemoteUse[] } {
  const found = judged.flatMap((j, index) =>
    (j.remotes ?? []).map(({ dir, ...remote }) => ({
      ...remote,
      index,
      dirs: fromPlaces(j, dir),
    }))
  );
  return found.length > 0 ? { remotes: found } : {};
}

/** Patches applied, with where their names are taken from every directory the command may run in. */
function patchesOf(judged: Judged[]): { patches?: PatchUse[] } {
  const found = judged.flatMap((j, index): PatchUse[] => {
    const apply = readPatchApply(j);
    if (!apply?.writes) return [];
    // `patch -p1 < x.patch`: the input is a file the decision can read (the last redirection wins).
    const input = j.raw.redirects.findLast((r) => /^0?<$/.test(r.op) && !r.glob)?.target;
    return [{
      index,
      tool: apply.tool,
      dirs: fromPlaces(j, apply.dir),
      files: apply.files,
      ...(apply.files.length === 0 && input !== undefined ? { input: fromPlaces(j, input) } : {}),
      ...(apply.strip !== undefined ? { strip: apply.strip } : {}),
      ...(apply.prefix !== undefined ? { prefix: apply.prefix } : {}),
      ...(apply.only !== undefined ? { only: apply.only } : {}),
    }];
  });
  return found.length > 0 ? { patches: found } : {};
}

/** git commands that read no blob or tree (a partial clone fetches missing ones on demand). */
const NO_OBJECTS = new Set([
  "status",
  "rev-parse",
  "config",
  "branch",
  "tag",
  "remote",
  "worktree",
  "version",
  "help",
  "var",
  "ls-files",
  "check-ignore",
  "check-attr",
  "count-objects",
  "for-each-ref",
  "show-ref",
  "stash",
  "add",
  "commit",
  "init",
]);

/** Commands that walk commits only, unless they print content or are limited to paths. */
const COMMIT_WALKS = new Set(["log", "shortlog", "rev-list", "reflog", "whatchanged"]);

/** It may read stored blobs or trees: it prints content, or is not one of the commands known to read none. */
function readsObjects(call: ReturnType<typeof resolveGit>, reads: string | undefined): boolean {
  const sub = call.subcommand?.toLowerCase();
  if (sub === undefined) return false;
  if (reads !== undefined) return true;
  if (COMMIT_WALKS.has(sub)) return call.args.some((a) => !a.startsWith("-"));
  return !NO_OBJECTS.has(sub);
}

/** The repository each git command uses, seen from every directory it may run in. */
function repositoriesOf(judged: Judged[]): { repositories?: RepositoryUse[] } {
  const uses = judged.flatMap((j, index): RepositoryUse[] => {
    if (j.name !== "git") return [];
    const call = resolveGit(j.args);
    const config = printedConfig(call, index);
    // Not one of git's own commands: the configuration may make it an alias.
    const sub = call.subcommand?.toLowerCase();
    const reads = historyRead(j);
    const alias = {
      ...(sub !== undefined && !GIT_COMMANDS.has(sub) ? { alias: sub } : {}),
      ...(reads ? { reads } : {}),
      ...(readsObjects(call, reads) ? { objects: true } : {}),
      ...(config ? { config } : {}),
    };
    if (call.gitDir !== undefined) {
      const gitDir = call.start === "." || /^[/~]/.test(call.gitDir)
        ? call.gitDir
        : `${call.start}/${call.gitDir}`;
      return fromPlaces(j, gitDir).map((dir) => ({ command: j.name, dir, gitDir: true, ...alias }));
    }
    return fromPlaces(j, call.start).map((dir) => ({ command: j.name, dir, ...alias }));
  });
  return uses.length > 0 ? { repositories: uses } : {};
}

/**
 * Whether allow rules may approve this command at all. False when the structure is not simple, a
 * security check fired, a catastrophe or critical target was found, or some sub-command carries
 * an unsafe assignment or a reason no prefix rule may cover it. Policy still matches deny and ask
 * rules against every sub-command.
 */
export function rulesMayAllow(a: BashAnalysis): boolean {
  return a.parse === "simple" && a.checks.length === 0 && a.askReasons.length === 0 &&
    a.catastrophic.length === 0 &&
    a.commands.every((c) => !c.hasUnsafeEnv && c.noAutoAllow.length === 0);
}

interface Inner {
  judged: Judged[];
  complex: string[];
  checks: CheckHit[];
  catastrophic: ReturnType<typeof findCatastrophes>;
  /** See `BashAnalysis.opaque`: what no wildcard for an unknown word can picture. */
  opaque: string[];
  /** Names of the functions defined, nested scripts included. */
  defines: string[];
  /** Why the command was not parsed with tree-sitter, when it was not. */
  unparsed?: string;
  tooLong?: boolean;
}

function analyzeInner(written: string, parser: Parser | null, depth: number, where?: Where): Inner {
  // bash joins backslash-newline before anything else; so does every judgement here.
  const command = joinContinuations(written);
  const { walk, unparsed, tooLong } = read(command, parser);
  const complex = [...walk.complex];
  const judged: Judged[] = [];
  const checks = new Map<number, CheckHit>();
  const catastrophic = new Map<string, ReturnType<typeof findCatastrophes>[number]>();
  const opaque: string[] = [];
  const defines = (walk.functions ?? []).map((f) => f.name);
  const runScript = (script: Script, raw: RawCommand | undefined) => {
    if (depth >= MAX_SCRIPT_DEPTH) {
      complex.push("shell code nested in shell code too deeply to follow");
      return;
    }
    const sub = analyzeInner(script.text, parser, depth + 1, where);
    const unsafeEnv = Object.entries(script.env).some(([key, value]) => !isSafeAssignment(key, value));
    for (const j of sub.judged) {
      j.command.via ??= script.via;
      j.command.env = { ...script.env, ...j.command.env };
      if (unsafeEnv) Object.assign(j.command, { hasUnsafeEnv: true, readOnly: false, prefix: null });
      // The whole script runs as this stage of the outer pipeline (`curl x | sh -c 'python3'`).
      judged.push(
        raw ? { ...j, raw: { ...j.raw, ...stageOf(raw) } } : j,
      );
    }
    complex.push(...sub.complex);
    if (sub.unparsed) complex.push(sub.unparsed);
    for (const hit of sub.checks) checks.set(hit.id, hit);
    for (const c of sub.catastrophic) catastrophic.set(c.id, c);
    opaque.push(...sub.opaque);
    defines.push(...sub.defines);
  };
  for (const raw of walk.commands) {
    const stdin = stdinText(raw, walk.commands);
    const { invocations, scripts: wrapped } = unwrap(raw, stdin);
    const scripts = [...wrapped, ...invocations.flatMap((inv) => stdinScript(inv, stdin) ?? [])];
    invocations.forEach((inv, i) => {
      const j = judgeInvocation(inv, i === 0 ? raw.redirects : []);
      const unknown = unknownWord(j);
      if (unknown) complex.push(unknownVariable(unknown));
      const globbed = globbedCommand(j);
      if (globbed) complex.push(globbed);
      if (bindsCommandName(j)) {
        complex.push("hash -p binds a command name to a program (it can shadow a command)");
      }
      if (stdin !== undefined && stdin !== "" && !j.command.readOnly) j.command.input = stdin;
      judged.push(j);
      scripts.push(...payloadScripts(j));
      const git = gitRuns(j);
      scripts.push(...git.scripts.map((s) => ({ ...s, env: {} })));
      opaque.push(...git.opaque);
      opaque.push(...opaqueParts(j), ...unseenRuns(j));
      if (runsUnknownInput(j, stdin)) {
        opaque.push(`${j.name} runs code it reads from its input, known only when it runs`);
      }
      const program = programInput(j, stdin);
      if (program !== undefined) {
        const input = inputCode(j.name, program);
        scripts.push(...input.scripts);
        opaque.push(...input.opaque);
      }
    });
    if (invocations.length === 0) judged.push(...redirectOnly(raw));
    for (const script of scripts) runScript(script, raw);
  }
  opaque.push(...gitLineRisks(judged));
  // Literal text the shell evaluates as arithmetic or a name (`(( 'a[$(cmd)]' ))`) runs its substitutions.
  for (const text of walk.evaluated ?? []) {
    for (const code of hiddenSubstitutions(text)) {
      runScript({ text: code, via: "arithmetic evaluation", env: {} }, undefined);
    }
  }
  // Values bash may run later (`PS4='$(cmd)'`, `x='a[$(cmd)]'; let x`, `PROMPT_COMMAND=cmd`).
  const assigned = assignedCode(walk.commands.flatMap((raw) => raw.assignments));
  for (const { text, via } of assigned.scripts) runScript({ text, via, env: {} }, undefined);
  opaque.push(...assigned.opaque, ...builtinAssignedCode(judged), ...arithmeticOnUnknownValues(walk, judged));
  const loaded = codeLoadedByLine(walk.commands, judged);
  if (loaded !== undefined) { for (const j of judged) j.command.loadsCode ??= loaded; }
  for (const body of walk.hereDocuments ?? []) {
    for (const code of hiddenSubstitutions(body)) {
      runScript({ text: code, via: "a here-document", env: {} }, undefined);
    }
  }
  const views = quoteViews(command);
  const hits = runChecks({
    raw: command,
    views,
    argvs: judged.map((j) => [j.name, ...j.args]),
    malformed: walk.complex.includes(PARSE_ERROR) ||
      (parser === null && walk.complex.includes("unterminated quote")),
  });
  for (const hit of hits) checks.set(hit.id, hit);
  opaque.push(...hits.filter((hit) => !walkedCheck(hit, views)).map((hit) => hit.message));
  const forSomeValue = catastrophesForSomeValue(command, judged, walk.functions ?? [], where);
  placeCommands(judged);
  for (const c of findCatastrophes(command, judged, walk.functions, where)) catastrophic.set(c.id, c);
  for (const c of forSomeValue) {
    if (!catastrophic.has(c.id)) opaque.push(`may be catastrophic: ${c.reason} (${c.id}: ${c.name})`);
  }
  const losses = new Set(judged.flatMap((j) => j.workLoss ?? []).map((w) => w.id));
  for (const w of workLossForSomeValue(judged)) {
    if (!losses.has(w.id)) opaque.push(`may lose work: ${w.name} (${w.id})`);
  }
  return {
    judged,
    complex: [...new Set(complex)],
    checks: [...checks.values()].sort((a, b) => a.id - b.id),
    catastrophic: [...catastrophic.values()],
    opaque: [...new Set(opaque)],
    defines: [...new Set(defines)],
    ...(unparsed ? { unparsed } : {}),
    ...(tooLong ? { tooLong } : {}),
  };
}

const PARSE_ERROR = "part of the command could not be parsed";

/** Where a wrapper's script runs: the wrapper's pipeline stage, and its endless loop if any. */
function stageOf(raw: RawCommand): Pick<RawCommand, "pipe" | "stage" | "stages" | "forksForever"> {
  return {
    pipe: raw.pipe,
    stage: raw.stage,
    stages: raw.stages,
    ...(raw.forksForever ? { forksForever: true } : {}),
  };
}

function read(
  command: string,
  parser: Parser | null,
): { walk: WalkResult; unparsed?: string; tooLong?: boolean } {
  const plain = plainWords(command);
  if (plain) return { walk: plain };
  if (command.length > MAX_PARSE_CHARS) {
    return {
      walk: conservativeSplit(command),
      unparsed: `command is too long to analyze (${command.length} characters)`,
      tooLong: true,
    };
  }
  if (parser === null) {
    return {
      walk: conservativeSplit(command),
      unparsed: `the bash parser is unavailable (${
        bashParserLoadError() ?? "not loaded"
      }); the command was only roughly split`,
    };
  }
  const tree = parser.parse(command);
  if (!tree) return { walk: conservativeSplit(command), unparsed: "the bash parser failed on this command" };
  try {
    const walk = walkTree(tree.rootNode);
    if (walk.complex.includes(PARSE_ERROR)) walk.commands.push(...roughly(command));
    return { walk };
  } finally {
    tree.delete();
  }
}

/** Pipelines of the rough split are numbered apart from the parser's. */
const ROUGH_PIPES = 1_000_000;

/**
 * Where tree-sitter gave up (`` ls `#x`; rm -rf ~ ``), bash may still run more than the tree
 * shows: the rough split's commands are judged too, so deny rules and catastrophes see them.
 */
function roughly(command: string): RawCommand[] {
  return conservativeSplit(command).commands.map((c) => ({
    ...c,
    pipe: c.pipe === 0 ? 0 : c.pipe + ROUGH_PIPES,
    nested: "text the parser could not read",
  }));
}

function judgeInvocation(
  inv: ReturnType<typeof unwrap>["invocations"][number],
  redirects: Redirect[],
): Judged {
  const verdict = judge(inv.words);
  const name = basename(inv.words[0]?.text ?? "");
  const args = inv.words.slice(1).map((w) => w.text);
  const redirectPaths = redirectAccess(redirects);
  const globs = new Set(inv.words.filter((w) => w.glob).map((w) => w.text));
  const tree = treeRead([name, ...(verdict.subcommands ?? [])].join(" "), verdict.options ?? optionsOf(args));
  const operandPaths = withFound(
    withTree(verdict.paths.map((p) => (globs.has(p.path) ? { ...p, glob: true } : p)), tree),
    inv.found,
  );
  // xargs hands the command words from its input: files nobody can name before it runs.
  if (inv.via === "xargs") operandPaths.push({ path: XARGS_INPUT, access: "read", runtime: true });
  const paths: Access[] = [...operandPaths, ...globListings(inv.words), ...redirectPaths];
  const hasUnsafeEnv = Object.entries(inv.env).some(([key, value]) => !isSafeAssignment(key, value));
  // A spec judges the words it knows bash evaluates; other builtins are judged here.
  const evaluated = specFor(name) ? [] : evaluationRisks(name, args);
  const noAutoAllow = [...inv.notes, ...verdict.noAutoAllow, ...evaluated];
  if (
    !SHELLS.has(name) && programFromStdin(name, args, false) && (args.includes("-") || takesInput(inv.raw))
  ) {
    noAutoAllow.push(`${name} runs the program it reads on its standard input`);
  }
  const viaXargs = inv.via === "xargs" && !verdict.readOnly;
  if (viaXargs) noAutoAllow.push("xargs passes it arguments from input that cannot be checked");
  const ruleText = verdict.ruleWords.join(" ");
  const open = openTexts(inv, verdict.ruleWords, inv.argv, inv.via);
  const secrets = [...new Set([...verdict.secrets, ...printedSecrets(name, args, redirects)])];
  const reasons = [...new Set([...verdict.reasons, ...secrets])];
  const readOnly = inv.words.length === 0
    ? !hasUnsafeEnv && redirectPaths.every((p) => p.access === "read")
    : verdict.readOnly && !inv.sideEffects && !hasUnsafeEnv && noAutoAllow.length === 0 &&
      redirectPaths.every((p) => p.access === "read") &&
      inv.words.every((w, i) => !w.dynamic || (i > 0 && PRINTERS.has(name))) && secrets.length === 0;
  const command: SimpleCommand = {
    argv: inv.argv,
    env: inv.env,
    redirects,
    ruleText,
    hasUnsafeEnv,
    noAutoAllow,
    readOnly,
    prefix: readOnly || inv.words.length === 0 ? null : commandPrefix(ruleText),
    ...(reasons.length > 0 ? { reasons } : {}),
    ...(secrets.length > 0 ? { secrets } : {}),
  };
  if (inv.via) command.via = inv.via;
  if (open) command.open = open;
  const judged: Judged = {
    name,
    args,
    words: inv.words,
    raw: inv.raw,
    paths,
    command,
    ...(inv.chdir !== undefined ? { chdir: inv.chdir } : {}),
    ...(verdict.globSubcommand ? { globSubcommand: verdict.globSubcommand } : {}),
    ...(verdict.unseen.length > 0 ? { unseen: verdict.unseen } : {}),
    ...(verdict.commandLines.length > 0 ? { commandLines: verdict.commandLines } : {}),
    ...(verdict.runsInline ? { runsInline: verdict.runsInline } : {}),
  };
  const workLoss = workLossOf(judged);
  if (workLoss.length > 0) {
    judged.workLoss = workLoss;
    command.workLoss = workLoss.map((w) => w.id);
  }
  const helpers = helperPrograms(judged);
  if (helpers.texts.length > 0) command.helpers = helpers.texts;
  if (helpers.remotes.length > 0) judged.remotes = helpers.remotes;
  return judged;
}

/**
 * Bash expands an unquoted pattern by listing the folder before its first wildcard (`echo ~/.ssh/*`
 * lists `~/.ssh`, `echo ../*` the parent, `echo link/*` wherever the link leads), whatever the
 * command does with the names: each such folder is read. A pattern with no folder lists the one the
 * command runs in.
 */
function globListings(words: readonly Word[]): Access[] {
  return words.slice(1).flatMap((w): Access[] => {
    if (!w.glob) return [];
    const wildcard = w.text.search(/[*?[]/);
    const slash = w.text.lastIndexOf("/", wildcard);
    const dir = slash < 0 ? "." : slash === 0 ? "/" : w.text.slice(0, slash);
    return [{ path: dir, access: "read" }];
  });
}

/** `hash -p /usr/bin/curl c` makes a later `c x` run curl: as a function definition would. */
function bindsCommandName(j: Judged): boolean {
  return j.name === "hash" && j.args.some((a) => /^-[a-z]*p/.test(a));
}

/** What stands for the words xargs appends, as a path read (any file). */
const XARGS_INPUT = "(the words xargs reads from its input)";

/**
 * `find ROOTS -exec cmd {} +`: a `{}` read is every file below the roots, judged as a tree read
 * (`.env` below asks); a `{}` written may be any of them.
 */
function withFound(paths: Access[], found: Invocation["found"]): Access[] {
  if (!found) return paths;
  return paths.flatMap((p): Access[] => {
    if (!p.path.includes("{}")) return [p];
    if (p.access === "write") return [{ ...p, runtime: true }];
    const tree = { contents: true, follow: found.follow, hidden: true };
    return found.roots.map((root) => ({ path: root, access: "read" as const, tree }));
  });
}

/** A tree walker reads every directory it is given, and `.` when it is given none. */
function withTree(paths: Access[], tree: TreeRead | undefined): Access[] {
  if (!tree) return paths;
  const reads = !tree.root && paths.some((p) => p.access === "read");
  return [...paths, ...(reads ? [] : [{ path: ".", access: "read" as const }])].map((p) =>
    p.access === "read" ? { ...p, tree } : p
  );
}

/** Why words of this command that bash evaluates (`test -v 'a[$(id)]'`) may run code. */
function evaluationRisks(name: string, args: string[]): string[] {
  return evaluatedWords(name, args).flatMap((w) => {
    const risk = evaluationRisk(w.text, w.role);
    return risk ? [`${w.builtin}: ${risk}`] : [];
  });
}

/**
 * Code hidden in literal words that the command runs: an interpreter's inline code hands shell
 * commands back (`os.system("...")`), and words bash evaluates hold command substitutions.
 */
function payloadScripts(j: Judged): Script[] {
  const out: Script[] = (j.commandLines ?? []).map(({ text, via }) => ({ text, via, env: {} }));
  j.inline = inlineCode(j.name, j.args)?.code ?? null;
  if (j.inline !== null && computedRuns(j.inline) !== undefined) j.command.runsComputed = true;
  // A file named at run time may be any file: read rules and the sandbox's auto-allow meet it.
  const reads = j.inline === null ? undefined : computedReads(j.inline);
  if (reads) {
    j.paths.push({
      path: `(the file its inline code opens by a computed name: ${reads})`,
      access: "read",
      runtime: true,
    });
  }
  const native = j.inline === null ? undefined : loadsNativeCode(j.inline);
  if (native !== undefined) j.command.loadsCode = `${j.name}: ${native}`;
  for (const text of j.inline === null ? [] : shellPayloads(j.inline)) {
    out.push({ text, via: `${j.name} inline code`, env: {} });
  }
  // `alias c=curl`: a later line's `c x` runs the value (with expand_aliases, or in an interactive shell).
  if (j.name === "alias") {
    for (const a of j.args.filter((a) => /^[^-=][^=]*=/.test(a))) {
      out.push({ text: a.slice(a.indexOf("=") + 1), via: `alias ${a.slice(0, a.indexOf("="))}`, env: {} });
    }
  }
  for (const w of evaluatedWords(j.name, j.args)) {
    for (const text of w.role === "code" ? [w.text] : hiddenSubstitutions(w.text)) {
      out.push({ text, via: w.builtin, env: {} });
    }
  }
  return out;
}

/** The program an interpreter other than a shell reads from a known input (`python3 <<'EOF'`). */
function programInput(j: Judged, stdin: string | undefined): string | undefined {
  if (stdin === undefined || !takesInput(j.raw) || SHELLS.has(j.name)) return undefined;
  return programFromStdin(j.name, j.args, false) ? stdin : undefined;
}

/**
 * Code an interpreter reads from its input, like inline code: the literal commands it runs are read
 * (rules see them); code that builds what it runs, or a language that is not read, is opaque.
 */
function inputCode(name: string, code: string): { scripts: Script[]; opaque: string[] } {
  if (!readsLanguage(name)) {
    return { scripts: [], opaque: [`${name} runs the code on its input, which is not read before it runs`] };
  }
  const computed = computedRuns(code);
  return {
    scripts: shellPayloads(code).map((text) => ({ text, via: `${name} code on its input`, env: {} })),
    opaque: computed === undefined ? [] : [`${name}: ${computed.replace("inline code", "input code")}`],
  };
}

/**
 * What it runs that rules cannot see: a program or code named in an option, and inline code that
 * is not read (a language `inline-code.ts` does not know) or that computes what it runs.
 */
function unseenRuns(j: Judged): string[] {
  const out = [...(j.unseen ?? [])];
  if (j.runsInline !== undefined) {
    const computed = j.inline === null || j.inline === undefined ? "" : computedRuns(j.inline);
    if (computed !== undefined) out.push(computed === "" ? j.runsInline : `${j.name}: ${computed}`);
  }
  return out;
}

/**
 * It runs the code it reads on its input (`... | sh`, `... | python3 -`, `source /dev/stdin`),
 * and the line does not fix that input (a literal here-document or `echo '...'` would be read as code).
 */
function runsUnknownInput(j: Judged, stdin: string | undefined): boolean {
  if (stdin !== undefined || !takesInput(j.raw)) return false;
  if (j.name === "source" || j.name === ".") return j.args[0] === "/dev/stdin";
  return j.name === "at" || j.name === "batch" || programFromStdin(j.name, j.args, SHELLS.has(j.name));
}

/** Its standard input is redirected or piped in (not the caller's, which is empty for an agent). */
function takesInput(raw: RawCommand): boolean {
  return raw.stage > 0 || raw.redirects.some((r) => /^0?<(?:<<?|<-)?$/.test(r.op));
}

/**
 * An unknown variable where its value matters: the command name, or any argument of a command
 * other than the printers (`echo $PATH` only prints it).
 */
function unknownWord(j: Judged): string | undefined {
  if (j.words[0]?.unknown) return j.words[0].unknown;
  return PRINTERS.has(j.name) ? undefined : j.words.find((w) => w.unknown)?.unknown;
}

/**
 * An unquoted glob as the command name (`/usr/b*n/curl`, `cur?`) or where a subcommand goes
 * (`git pus*`): the files present pick the program or subcommand, so no rule can be matched
 * against it with confidence (deny and ask rules may well be meant).
 */
function globbedCommand(j: Judged): string | undefined {
  const name = j.words[0];
  if (name?.glob) {
    return `the command name ${name.text} is a glob: the files present pick the program it runs`;
  }
  const sub = j.globSubcommand;
  return sub ? `${sub} is a glob: the files present pick the subcommand it runs` : undefined;
}

/** A command that ran nothing itself (`bash -c '...' > out`): keep its redirections. */
function redirectOnly(raw: RawCommand): Judged[] {
  if (raw.redirects.length === 0) return [];
  const paths = redirectAccess(raw.redirects);
  return [{
    name: basename(raw.words[0]?.text ?? ""),
    args: [],
    words: [],
    raw,
    paths,
    command: {
      argv: [],
      env: {},
      redirects: raw.redirects,
      ruleText: "",
      hasUnsafeEnv: false,
      noAutoAllow: [],
      readOnly: paths.every((p) => p.access === "read"),
      prefix: null,
    },
  }];
}

function redirectAccess(redirects: Redirect[]): Access[] {
  const out: Access[] = [];
  for (const r of redirects) {
    if (r.op.includes("<<") || HARMLESS_TARGET.test(r.target)) continue;
    out.push({
      path: r.target,
      access: r.op.includes(">") ? "write" : "read",
      ...(r.glob ? { glob: true } : {}),
    });
  }
  return out;
}
