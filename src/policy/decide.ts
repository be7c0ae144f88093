/**
 * The decision: one pure, synchronous function for every caller. deny > ask > allow across all
 * sources; then the mode and the tool's own answer. Every decision says what made it.
 */
import { commandForms, optionRuleMeets } from "../bash/command-meaning.ts";
import type { CompiledRule } from "./compile-rule.ts";
import { stripAssignments } from "./command-pattern.ts";
import { type CallFacts, factsOf } from "./facts.ts";
import { ACCEPT_EDITS_COMMANDS, EDIT_TOOLS, isProtectedPath } from "./modes.ts";
import { posix } from "node:path";
import { isInside } from "../tool/paths.ts";
import type { Policy } from "./policy.ts";
import { ruleThatMayMatch } from "./may-match.ts";
import { runsWrittenFile } from "./written-code.ts";
import { containment } from "./sandbox-allow.ts";
import type {
  Decision,
  DecisionRequest,
  DisabledDefaultMet,
  Effect,
  MatchedRule,
  PathAccess,
} from "./types.ts";
import { originalsOf } from "./editor-copies.ts";

/** One Bash sub-command as rules see it. */
export interface CommandTarget {
  /** Wrappers and safe assignments stripped: what allow rules match. */
  text: string;
  /** Every leading assignment stripped too: what deny and ask rules match. */
  bareText: string;
  /** The words as written, wrappers included: deny and ask rules match this too. */
  wrappedText: string;
  /**
   * The command with the wrapper it was taken out of in front (`bash -c ls`, `xargs rm`): deny and
   * ask rules match this too, so `Bash(bash:*)` holds for what runs inside `bash -c`.
   */
  viaText?: string;
  /**
   * The command as its program will read it (`npm publ` is `npm publish`), and the helper programs
   * it runs (`ssh h git-upload-pack 'x'` for `git ls-remote h:x`): deny and ask rules match these too.
   */
  canonicalTexts?: string[];
  /** Its words in each reading of `commandForms`, for deny and ask rules with options. */
  forms?: string[][];
  /** The wrapper it was taken out of (`xargs`, `find -exec`), when there is one. */
  via?: string;
  /** `text` and the argv with each word known only at run time as `*` (see `SimpleCommand.open`). */
  open?: { ruleText: string; argv: string; meanings?: string[] };
  argv: string[];
  /** Values of the command's assignments (`GIT_SSH_COMMAND='curl x'` names a program). */
  envValues?: string[];
  /** The literal text fed to its input, when it is not read-only (`ed <<< '!curl x'`). */
  input?: string;
  /** Its inline code runs a command it builds while it runs, or it loads code from files: any program. */
  runsComputed?: boolean;
  /** Why it loads code from files that no word runs (`LD_PRELOAD=./x.so ls`), when it does. */
  loadsCode?: string;
  hasUnsafeEnv: boolean;
  noAutoAllow: string[];
  /** The analyzer found this sub-command read-only (its paths are judged apart). */
  readOnly: boolean;
  /** Why the analyzer found it not read-only, when it says (it prints secrets). */
  reasons: string[];
  /** Why it prints secrets (`echo $GITHUB_TOKEN`): a security finding no allow rule may approve. */
  secrets: string[];
  /** Ids of the work-loss table's entries it matches (`git-reset-hard`). */
  workLoss: string[];
}

interface Hit {
  rule: CompiledRule;
  /** The whole call matched (call-scoped rules outside Bash). */
  whole: boolean;
  commands: ReadonlySet<number>;
  paths: ReadonlySet<number>;
  /** A file the git history holds that a git command may print (see `historyHits`). */
  history?: string;
}

/** At most this many of the analyzer's reasons why a command is not read-only go into a message. */
const MAX_REASONS = 3;

/** Modes in which a sandboxed compound command that rules cannot approve may still run unasked. */
const SANDBOX_STANDS_IN: ReadonlySet<string> = new Set(["default", "acceptEdits", "dontAsk"]);

/** Without the analyzer's split, shell operators mean the string is not one simple command. */
const SHELL_SYNTAX = /[;&|<>`\n]|\$\(/;

export function decide(request: DecisionRequest, policy: Policy): Decision {
  const result = emptyDecision(request);
  if (policy.state.failClosed) return finish(result, "deny", policy.state.failClosed);
  let mode = request.mode;
  if (mode === "bypassPermissions" && policy.state.bypassDisabledBy) {
    mode = "default";
    result.warnings.push(
      `bypassPermissions is disabled by ${policy.state.bypassDisabledBy}; deciding as default`,
    );
  }
  const commands = commandTargets(request);
  const facts = factsOf(request, policy.state.home, commands);
  const hits = matchRules(request, policy, commands, facts);
  const disabled = disabledDefaultsMet(request, policy, commands, facts);
  if (disabled.length > 0) result.disabledDefaults = disabled;

  const untrusted = hits.filter((h) => h.rule.meta.effect === "allow" && !h.rule.trusted);
  result.untrusted = untrusted.map((h) => h.rule.meta);
  const live = hits.filter((h) => h.rule.trusted || h.rule.meta.effect !== "allow");
  const denies = live.filter((h) => h.rule.meta.effect === "deny");
  const asks = live.filter((h) => h.rule.meta.effect === "ask");
  const allows = live.filter((h) => h.rule.meta.effect === "allow");
  const bash = request.bash;
  if (bash) result.warnings.push(...bash.warnings);
  const ask = (asked: string, matched: Hit[] = []) => {
    // Set only once the sandbox declined to stand in for the person: say why with the reason.
    const declined = result.sandbox?.notAutoAllowed;
    const reason = declined ? `${asked}; the sandbox does not auto-allow it: ${declined}` : asked;
    if (mode !== "dontAsk") return finish(result, "ask", reason, matched);
    // What would have been asked is denied; the rule that would allow it still does.
    const { suggestions } = result;
    const denied = finish(result, "deny", `${reason} (dontAsk mode turns every ask into a denial)`, matched);
    denied.suggestions = suggestions;
    return denied;
  };
  const hardAsk = (reason: string, matched: Hit[] = []) => {
    const decided = ask(reason, matched);
    if (decided.decision === "ask") decided.hardAsk = true;
    return decided;
  };
  // The sandbox may be the allow list: an allow when it contains the call and no deny or ask rule
  // could match what the call may turn out to be; otherwise it notes why not, for the ask.
  const sandboxAllows = (): Decision | undefined => {
    if (!result.sandbox || !request.sandbox) return undefined;
    const opaque = request.bash?.opaque ?? [];
    const contained = opaque.length > 0
      ? {
        contained: false as const,
        why: `what it runs cannot be known before it runs (${opaque.join("; ")})`,
      }
      : containment(request, request.sandbox);
    const strict = contained.contained ? ruleThatMayMatch(request, policy, commands) : undefined;
    if (contained.contained && !strict) {
      result.sandbox = { ...result.sandbox, autoAllowed: true, needsPerson: contained.needsPerson };
      return finish(result, "allow", contained.reason);
    }
    const loads = commands.find((c) => c.loadsCode !== undefined)?.loadsCode;
    result.sandbox.notAutoAllowed = contained.contained
      ? `${strict!.meta.rule} (${strict!.meta.effect}, ${strict!.meta.source}) could match what it runs ${
        loads === undefined ? "once its unknown words are known" : `(it loads code no rule can see: ${loads})`
      }`
      : contained.why;
    return undefined;
  };

  if (denies.length > 0) {
    result.overridden = [...asks, ...allows].map((h) => h.rule.meta);
    return finish(result, "deny", hitReason(denies[0]!, allows), denies);
  }
  // Catastrophic commands (the analyzer's list) are denied in every mode, whatever allows them.
  const catastrophic = catastrophicOf(request);
  if (catastrophic.length > 0) {
    result.overridden = [...asks, ...allows].map((h) => h.rule.meta);
    result.catastrophic = request.bash!.catastrophic.map((c) => c.id);
    return finish(result, "deny", `catastrophic command: ${catastrophic.join("; ")}`);
  }
  if (request.permission?.behavior === "deny") {
    return finish(result, "deny", request.permission.message);
  }
  if (asks.length > 0) {
    result.overridden = allows.map((h) => h.rule.meta);
    return hardAsk(hitReason(asks[0]!, allows), asks);
  }
  const unsure = unsureRule(request, policy, commands);
  if (unsure) return hardAsk(unsure.why, [unsure.hit]);
  if (request.requiresUserInteraction) return hardAsk(`${request.tool} needs a person to answer it`);
  const writes = request.paths.filter((p) => p.access === "write");
  const protectedWrite = writes.find((p) =>
    isProtectedPath(p.path) || (p.target && isProtectedPath(p.target))
  );
  const mustAsk = request.bash?.askReasons ?? [];
  // bypassPermissions is the person's standing answer; elsewhere no allow rule approves a finding.
  const findings = mode === "bypassPermissions" ? [] : securityFindings(request, commands);
  // Rules cannot approve the structure (`$(...)`, a loop, several lines), but the sandbox may when
  // all that is unknown is values: every command, script and code was found (nothing opaque,
  // which `sandboxAllows` checks).
  if (
    bash && (mustAsk.length > 0 || bash.checks.length > 0 || findings.length > 0) &&
    SANDBOX_STANDS_IN.has(mode)
  ) {
    if (protectedWrite && result.sandbox) {
      result.sandbox.notAutoAllowed = `${protectedWrite.path} is a protected path: writes to it always ask`;
    } else {
      const allowed = sandboxAllows();
      if (allowed) return allowed;
    }
  }
  if (request.bash && mustAsk.length > 0) {
    // The fired checks, when there are any, say it most precisely (and carry their ids).
    const checks = request.bash.checks;
    result.checks = checks.map((c) => c.id);
    result.suggestions = [];
    const why = checks.length > 0 ? checks.map((c) => c.message).join("; ") : mustAsk.join("; ");
    return hardAsk(`${why}: allow rules cannot approve this command`);
  }
  if (findings.length > 0) {
    result.suggestions = [];
    return hardAsk(`${findings.join("; ")}: allow rules cannot approve this command`);
  }

  if (mode !== "bypassPermissions" && protectedWrite) {
    return hardAsk(`${protectedWrite.path} is a protected path: writes to it always ask`);
  }
  if (mode === "plan" && !request.readOnly) {
    return finish(
      result,
      "deny",
      `plan mode runs read-only calls only; ${request.tool} here is not read-only`,
    );
  }
  if (mode === "bypassPermissions") {
    return finish(result, "allow", "bypassPermissions mode (no deny rule matched)");
  }

  if (request.tool === "Bash" && !bash && SHELL_SYNTAX.test(commandString(request))) {
    return ask("compound or redirected command and no Bash analysis: allow rules cannot approve it");
  }
  if (bash && (bash.checks.length > 0 || bash.parse !== "simple")) {
    result.checks = bash.checks.map((c) => c.id);
    result.suggestions = [];
    const why = bash.checks.length > 0
      ? bash.checks.map((c) => c.message).join("; ")
      : `the command could not be analysed (${bash.parse})`;
    return hardAsk(`${why}: allow rules cannot approve this command`);
  }

  const workspace = [request.cwd, ...request.additionalDirs];
  // Inside as written and where it really points: a link in the workspace to a file outside is outside.
  const inside = (path: string) => workspace.some((dir) => isInside(path, dir));
  const inWorkspace = (p: PathAccess) =>
    p.unresolved === undefined && p.untrusted === undefined && inside(p.path) &&
    (p.target === undefined || inside(p.target));
  const coverage = allowCoverage(request, commands, allows);
  const outsideWrite = request.paths.some((p, i) =>
    p.access === "write" && !inWorkspace(p) && !coverage.paths.has(i)
  );
  if (coverage.complete && !(request.tool === "Bash" && outsideWrite)) {
    return finish(result, "allow", allowReason(coverage.hits), coverage.hits);
  }
  // `ls && npm test` with only `Bash(npm test)` allowed: the read-only parts need no rule, as long
  // as nothing they touch lies outside the workspace.
  const outsideAny = request.paths.some((p, i) => !inWorkspace(p) && !coverage.paths.has(i));
  if (coverage.completeWithReadOnly && !outsideAny) {
    return finish(
      result,
      "allow",
      `${allowReason(coverage.hits)}; the other parts are read-only`,
      coverage.hits,
    );
  }
  if (request.permission?.behavior === "allow") {
    return finish(result, "allow", request.permission.reason ?? `${request.tool} allows this call itself`);
  }
  suggest(result, request);
  if (request.permission?.behavior === "ask") return ask(request.permission.message);

  const outside = request.paths.find((p, i) => !inWorkspace(p) && !coverage.paths.has(i));
  if (!outside && request.readOnly) {
    // Only rules that let it reach outside the workspace are worth naming.
    const pathAllows = allows.filter((h) => [...h.paths].some((i) => !inWorkspace(request.paths[i]!)));
    const by = pathAllows.length > 0 ? `; paths outside it ${allowReason(pathAllows)}` : "";
    return finish(result, "allow", `read-only ${request.tool} call inside the workspace${by}`, pathAllows);
  }
  if (!outside && mode === "acceptEdits" && isEdit(request, commands)) {
    return finish(result, "allow", "acceptEdits mode: file edits inside the workspace run without asking");
  }
  // Nothing but "no rule allows it" stands in the way: the sandbox may be the allow list.
  const allowed = sandboxAllows();
  if (allowed) return allowed;
  if (outside?.untrusted) return ask(outside.untrusted);
  if (outside) {
    const verb = outside.access === "read" ? "read" : "write";
    const where = outside.unresolved
      ? `${outside.path}, whose location is unknown (${outside.unresolved})`
      : outside.target && inside(outside.path)
      ? `${outside.path}, which points to ${outside.target} outside the workspace (${workspace.join(", ")})`
      : `${outside.path}, outside the workspace (${workspace.join(", ")})`;
    return ask(`${request.tool} would ${verb} ${where}`);
  }
  const uncovered = commands.filter((c, i) => !coverage.commands.has(i) && !c.readOnly);
  // Say why a prefix rule that names this command did not cover it (`find -exec`, `git -c`, ...).
  const blocked = uncovered.find((c) => c.noAutoAllow.length > 0);
  if (blocked) {
    // No prefix rule may allow it; a rule naming exactly these commands may, when what the rule
    // matches is the command as written (not `git log` for `git -c core.pager=... log`).
    const exact = uncovered.every((c) => c.text === c.wrappedText);
    if (result.suggestions.length === 0 && exact) {
      result.suggestions = uncovered.map((c) => `Bash(${c.text})`);
    }
    const why = blocked.noAutoAllow.join("; ");
    return ask(
      why.includes("cannot be auto-allowed") ? why : `${why} — cannot be auto-allowed by a prefix rule`,
    );
  }
  if (request.tool === "Bash" && commands.length > 1 && uncovered.length > 0) {
    return ask(`part of this compound command needs approval: ${uncovered.map((c) => c.text).join("; ")}`);
  }
  const why = [...new Set(uncovered.flatMap((c) => c.reasons))];
  if (why.length > 0) {
    const shown = why.length > MAX_REASONS ? [...why.slice(0, MAX_REASONS), "..."] : why;
    return ask(`no rule allows this ${request.tool} call, and it is not read-only: ${shown.join("; ")}`);
  }
  return ask(`no rule allows this ${request.tool} call, and it is not read-only inside the workspace`);
}

/** The default rules a policy file turned off that would have taken part in this decision. */
function disabledDefaultsMet(
  request: DecisionRequest,
  policy: Policy,
  commands: CommandTarget[],
  facts: CallFacts,
): DisabledDefaultMet[] {
  const view = policy.disabledDefaults();
  if (!view) return [];
  const met = matchRules(request, view, commands, facts).map((h) => h.rule.meta);
  return unique(met).flatMap((meta) => {
    const by = policy.state.disabled!.find((d) => d.id === meta.id)!;
    return [{ id: meta.id, rule: meta.rule, effect: meta.effect, disabledBy: by.file, source: by.source }];
  });
}

function emptyDecision(request: DecisionRequest): Decision {
  return {
    tool: request.tool,
    decision: "ask",
    reason: "",
    matched: [],
    checks: [],
    warnings: [],
    suggestions: [],
    overridden: [],
    untrusted: [],
    ...(request.sandbox && request.tool === "Bash"
      ? { sandbox: { sandboxed: true, autoAllowed: false, needsPerson: [] } }
      : {}),
  };
}

function finish(result: Decision, decision: Effect, reason: string, matched: Hit[] = []): Decision {
  result.decision = decision;
  result.reason = reason;
  result.matched = unique(matched.map((h) => h.rule.meta));
  if (decision !== "ask") result.suggestions = [];
  return result;
}

function unique(rules: MatchedRule[]): MatchedRule[] {
  return rules.filter((r, i) => rules.indexOf(r) === i);
}

/** Sub-commands for Bash: the analyzer's split, or the whole string as one command until it is wired. */
function commandTargets(request: DecisionRequest): CommandTarget[] {
  if (request.tool !== "Bash") return [];
  if (request.bash && request.bash.commands.length > 0) {
    return request.bash.commands.map((c) => ({
      text: c.ruleText,
      bareText: stripAssignments(c.ruleText),
      wrappedText: c.argv.join(" "),
      envValues: Object.values(c.env),
      ...(c.input !== undefined ? { input: c.input } : {}),
      ...(c.runsComputed || c.loadsCode !== undefined ? { runsComputed: true } : {}),
      ...(c.loadsCode !== undefined ? { loadsCode: c.loadsCode } : {}),
      ...(c.via ? { viaText: `${c.via} ${c.argv.join(" ")}`, via: c.via } : {}),
      ...(c.open ? { open: c.open } : {}),
      ...readings(stripAssignments(c.ruleText), c.helpers ?? []),
      argv: c.argv,
      hasUnsafeEnv: c.hasUnsafeEnv,
      noAutoAllow: c.noAutoAllow,
      readOnly: c.readOnly,
      reasons: c.reasons ?? [],
      secrets: c.secrets ?? [],
      workLoss: c.workLoss ?? [],
    }));
  }
  const text = commandString(request).trim();
  return [{
    text,
    bareText: stripAssignments(text),
    wrappedText: text,
    argv: text.split(/\s+/),
    hasUnsafeEnv: false,
    noAutoAllow: [],
    readOnly: false,
    reasons: [],
    secrets: [],
    workLoss: [],
  }];
}

/**
 * The command's readings as what it does (`commandForms`): their words, and their texts but its
 * own, with the helper commands it runs (`helpers`).
 */
function readings(text: string, helpers: readonly string[]): Pick<CommandTarget, "canonicalTexts" | "forms"> {
  const forms = commandForms(text.split(" "));
  return { canonicalTexts: [...new Set([...forms.slice(1).map((f) => f.join(" ")), ...helpers])], forms };
}

/** The Bash command string of a request (input `{command}`, or a bare string from `toolrt check`). */
function commandString(request: Pick<DecisionRequest, "input" | "bash">): string {
  if (request.bash) return request.bash.command;
  const input = request.input as { command?: unknown } | string | null;
  return typeof input === "string" ? input : typeof input?.command === "string" ? input.command : "";
}

function matchRules(
  request: DecisionRequest,
  policy: Policy,
  commands: CommandTarget[],
  facts: CallFacts,
): Hit[] {
  const input = (request.input !== null && typeof request.input === "object" ? request.input : {}) as Record<
    string,
    unknown
  >;
  const hits: Hit[] = [];
  const isBash = request.tool === "Bash";
  for (const rule of policy.rulesFor(request.tool)) {
    if (rule.inputTest && !rule.inputTest(input)) continue;
    if (!isBash) {
      if (rule.scope === "call" && (!rule.when || rule.when(facts.call()))) {
        hits.push({ rule, whole: true, commands: NONE, paths: NONE });
      }
      continue;
    }
    let matched: Set<number> | undefined;
    commands.forEach((command, i) => {
      if (commandMatches(rule, command) && (!rule.when || rule.when(facts.forCommand(i)))) {
        (matched ??= new Set()).add(i);
      }
    });
    if (matched) hits.push({ rule, whole: false, commands: matched, paths: NONE });
  }
  if (request.paths.length === 0) return [...hits, ...historyHits(request, policy, facts)];
  const candidates = request.paths.flatMap((p) => (p.target ? [p.path, p.target] : [p.path]));
  for (const rule of policy.pathRulesFor(candidates)) {
    if (rule.toolFilter && !rule.toolFilter(request.tool)) continue;
    let matched: Set<number> | undefined;
    request.paths.forEach((access, i) => {
      if (pathMatches(rule, access) && (!rule.when || rule.when(facts.forPath(i)))) {
        (matched ??= new Set()).add(i);
      }
    });
    if (matched) hits.push({ rule, whole: false, commands: NONE, paths: matched });
  }
  return [...hits, ...historyHits(request, policy, facts)];
}

/**
 * Read deny and ask rules met by the files a git command may print from the history: a hit says
 * which file, as the history holds it. Allow rules do not see them (nothing is opened there).
 */
function historyHits(request: DecisionRequest, policy: Policy, facts: CallFacts): Hit[] {
  const history = request.historyReads ?? [];
  if (history.length === 0) return [];
  const hits: Hit[] = [];
  for (const rule of policy.pathRulesFor(history.map((p) => p.path))) {
    if (rule.meta.effect === "allow" || rule.path!.family !== "read") continue;
    if (rule.toolFilter && !rule.toolFilter(request.tool)) continue;
    const held = history.find((p) =>
      pathMatches(rule, p) && (!rule.when || rule.when({ ...facts.call(), path: p.path }))
    );
    if (held) hits.push({ rule, whole: false, commands: NONE, paths: NONE, history: held.path });
  }
  return hits;
}

const NONE: ReadonlySet<number> = new Set();

/**
 * A deny or ask rule that may hold for a command though its text does not show it: the rule names
 * options, and the command's options cannot be read (a program without a spec, an unknown or
 * ambiguous option); or the line runs code from a file it writes (`written-code.ts`), which no
 * rule can see. Asking fails closed; allow rules are never read this way.
 */
function unsureRule(
  request: DecisionRequest,
  policy: Policy,
  commands: readonly CommandTarget[],
): { hit: Hit; why: string } | undefined {
  if (request.tool !== "Bash") return undefined;
  for (const rule of policy.rulesFor(request.tool)) {
    const optionRule = rule.command?.optionRule;
    if (rule.meta.effect === "allow" || !optionRule) continue;
    const at = commands.findIndex((c) => c.forms && optionRuleMeets(optionRule, c.forms) === "unsure");
    if (at === -1) continue;
    const why = `${
      commands[at]!.text
    }: its options cannot be read to tell whether ${rule.meta.rule} (${rule.meta.effect}, ${rule.meta.source}) holds for it`;
    return { hit: { rule, whole: false, commands: new Set([at]), paths: NONE }, why };
  }
  const rule = policy.rulesFor(request.tool).find((r) => r.meta.effect !== "allow" && r.command);
  const written = rule ? runsWrittenFile(request, commands) : undefined;
  if (!rule || !written) return undefined;
  const why =
    `${written}: what that file runs cannot be matched against ${rule.meta.rule} (${rule.meta.effect}, ${rule.meta.source})`;
  return { hit: { rule, whole: false, commands: NONE, paths: NONE }, why };
}

function commandMatches(rule: CompiledRule, command: CommandTarget): boolean {
  if (!rule.command) return true;
  if (rule.meta.effect !== "allow") {
    // Deny and ask also see the wrappers: `Bash(nohup:*)` denies `nohup ./server`.
    const { regex } = rule.command;
    return regex.test(command.bareText) || regex.test(command.text) || regex.test(command.wrappedText) ||
      (command.viaText !== undefined && regex.test(command.viaText)) ||
      (command.canonicalTexts ?? []).some((text) => regex.test(text)) ||
      (rule.command.optionRule !== undefined && command.forms !== undefined &&
        optionRuleMeets(rule.command.optionRule, command.forms) === "meets");
  }
  if (command.hasUnsafeEnv) return false;
  if (command.noAutoAllow.length > 0) {
    // What made it unsafe (`git -c core.pager=...`, `find -exec`) may be missing from the rule text
    // (git's globals are dropped there): only a rule naming every written word may allow it.
    return !rule.command.isPrefix && rule.command.regex.test(command.wrappedText);
  }
  return rule.command.regex.test(command.text);
}

/**
 * `Read(...)` rules govern reads; their deny and ask also block writes there. `Edit(...)` rules
 * govern writes; their allow also grants reads. Allow needs a symlink and its target to match,
 * deny and ask either.
 */
function pathMatches(rule: CompiledRule, access: PathAccess): boolean {
  const { family, regex, prefix, except } = rule.path!;
  const isAllow = rule.meta.effect === "allow";
  const applies = family === "read"
    ? access.access === "read" || !isAllow
    : access.access === "write" || isAllow;
  if (!applies) return false;
  // Where an unresolved path leads is unknown: it counts as outside everything, no allow covers it.
  if (isAllow && access.unresolved !== undefined) return false;
  const exact = (path: string) =>
    path.startsWith(prefix) && regex.test(path) && !except?.some((e) => e.test(path));
  // An editor's copy (`.env~`, `.id_rsa.swp`) holds the file's contents: deny and ask hold for it.
  const test = isAllow ? exact : (path: string) => exact(path) || originalsOf(path).some(exact);
  const pathHit = test(access.path);
  if (access.target === undefined) return pathHit;
  return isAllow ? pathHit && test(access.target) : pathHit || test(access.target);
}

interface Coverage {
  complete: boolean;
  /** Bash: every sub-command is covered by a rule or read-only, and at least one by a rule. */
  completeWithReadOnly: boolean;
  hits: Hit[];
  commands: ReadonlySet<number>;
  paths: ReadonlySet<number>;
}

/** Do the allow rules cover the whole call: every sub-command, or the call, or every path? */
function allowCoverage(request: DecisionRequest, commands: CommandTarget[], allows: Hit[]): Coverage {
  const covered = { commands: new Set<number>(), paths: new Set<number>() };
  for (const hit of allows) {
    hit.commands.forEach((i) => covered.commands.add(i));
    // A repository git would trust is not a file a path rule can vouch for.
    hit.paths.forEach((i) => request.paths[i]?.untrusted === undefined && covered.paths.add(i));
  }
  const whole = allows.filter((h) => h.whole);
  if (request.tool !== "Bash" && whole.length > 0) {
    return { complete: true, completeWithReadOnly: false, hits: whole, ...covered };
  }
  if (request.tool === "Bash") {
    const complete = commands.length > 0 && commands.every((_, i) => covered.commands.has(i));
    const completeWithReadOnly = covered.commands.size > 0 &&
      commands.every((c, i) => covered.commands.has(i) || c.readOnly);
    return { complete, completeWithReadOnly, hits: allows.filter((h) => h.commands.size > 0), ...covered };
  }
  const complete = request.paths.length > 0 && request.paths.every((_, i) => covered.paths.has(i));
  return { complete, completeWithReadOnly: false, hits: allows.filter((h) => h.paths.size > 0), ...covered };
}

function isEdit(request: DecisionRequest, commands: CommandTarget[]): boolean {
  if (EDIT_TOOLS.has(request.tool)) return true;
  return request.tool === "Bash" && commands.length > 0 &&
    commands.every((c) => ACCEPT_EDITS_COMMANDS.has(c.argv[0] ?? ""));
}

/**
 * The security findings of a call: a repository or toolchain file git or a proxy would trust that is
 * not the workspace's own (`untrusted` paths), secrets it prints. Each asks a person whatever allows
 * the command: `Bash(git status:*)` is about git's commands, not about the repository it finds.
 */
function securityFindings(request: DecisionRequest, commands: CommandTarget[]): string[] {
  const found = [
    ...request.paths.flatMap((p) => (p.untrusted === undefined ? [] : [p.untrusted])),
    ...commands.flatMap((c) => c.secrets),
  ];
  return [...new Set(found)];
}

/** Catastrophic commands the analyzer flags: never approved by a rule, a hook or a mode. */
function catastrophicOf(request: DecisionRequest): string[] {
  return (request.bash?.catastrophic ?? []).map((c) => `${c.reason} (${c.id}: ${c.name})`);
}

/**
 * The allow a deny or ask beat, to name in the reason: one about the same thing (a path rule for a
 * path, a command or call rule for the call), not `Read(./**)` when a command rule asked.
 */
function beatenAllow(winner: Hit, allows: Hit[]): CompiledRule | undefined {
  const kind = (rule: CompiledRule) => (rule.scope === "path" ? "path" : "call");
  return allows.find((h) => kind(h.rule) === kind(winner.rule))?.rule;
}

function describeRule(meta: MatchedRule): string {
  return `${meta.rule} (rule ${meta.id}, ${meta.source}: ${meta.file})`;
}

const EFFECT_VERB: Record<Effect, string> = { allow: "allows", ask: "asks", deny: "denies" };

/** The reason of a deny or ask hit; for a file in the git history, which file. */
function hitReason(hit: Hit, allows: Hit[]): string {
  const reason = ruleReason(hit.rule, beatenAllow(hit, allows));
  return hit.history === undefined
    ? reason
    : `the git history holds ${hit.history}, which this command may print: ${reason}`;
}

/** The reason a deny or ask rule gives, saying so when it beat a narrower allow. */
export function ruleReason(winner: CompiledRule, beatenAllow: CompiledRule | undefined): string {
  const verb = EFFECT_VERB[winner.meta.effect];
  // A rule with a condition is named by its id too: `Bash` alone does not say what it asks about.
  const label = winner.when ? `${winner.meta.rule} [${winner.meta.id}]` : winner.meta.rule;
  const base = beatenAllow
    ? `${beatenAllow.meta.rule} allowed by ${beatenAllow.meta.source}, but ${label} ${verb} from ${winner.meta.source}`
    : `${winner.meta.effect === "deny" ? "denied" : "asks"} by ${describeRule(winner.meta)}`;
  return winner.reason ? `${winner.reason} — ${base}` : base;
}

function allowReason(hits: Hit[]): string {
  return `allowed by ${hits.map((h) => describeRule(h.rule.meta)).join(" and ")}`;
}

function suggest(result: Decision, request: DecisionRequest): void {
  if (request.bash) {
    result.suggestions = [...request.bash.suggestions];
    return;
  }
  if (request.tool === "Bash") return;
  // A file tool: the path rule for what it touches (`Edit(./src/a.ts)`, `Read(//etc/**)`).
  const written = request.paths.find((p) => p.access === "write");
  const read = request.paths.find((p) => p.access === "read");
  if (written) result.suggestions = [`Edit(${rulePathOf(written.path, request.cwd)})`];
  else if (read) result.suggestions = [`Read(${rulePathOf(posix.dirname(read.path), request.cwd)}/**)`];
  else result.suggestions = [request.tool];
}

/** A path as a rule names it: `./rel` inside the workspace, `//abs` elsewhere. */
function rulePathOf(path: string, cwd: string): string {
  if (path === cwd) return ".";
  return isInside(path, cwd) ? `./${posix.relative(cwd, path)}` : path === "/" ? "/" : `/${path}`;
}
