/**
 * One hook call: read the payload, map it, decide, record, answer. Every failure becomes "no
 * decision" (the host decides as it would without toolrt) and a line in the audit log; the only
 * exception is a broken policy file, which denies every call and names the file (fail closed).
 */
import { decisionFields, policyDigestsOf } from "../audit/decision.ts";
import { auditableInput, type AuditEvent, digestInput } from "../audit/log.ts";
import type { BashAnalysis } from "../bash/types.ts";
import { checkCall } from "../cli/check-call.ts";
import { type GlobalOptions, loadOptionsOf } from "../cli/options.ts";
import type { PolicyCompiler } from "../policy/compile-cache.ts";
import { loadPolicy } from "../policy/load.ts";
import type { Policy, PolicyState } from "../policy/policy.ts";
import type { Decision } from "../policy/types.ts";
import { PROTOCOLS } from "./hosts/index.ts";
import { commandPlaces, type ExecutionPlace } from "../exec/processes/sandbox-context.ts";
import { DEFAULT_SANDBOX_POLICY } from "../policy/sandbox-policy.ts";
import { selfCommand } from "./command.ts";
import { sandboxedCommand } from "./sandboxed-command.ts";
import { hostGrepDecision } from "./host-grep.ts";
import { sessionRoot } from "./session-root.ts";
import { startOf } from "./start-dir.ts";
import { masksForLine, namedPrograms, programMasks } from "../policy/program-rules.ts";
import type { HookEvent, HookInvocation, MappedCall, PostToolEvent, PreToolEvent, Verdict } from "./types.ts";
import { verdictFor } from "./verdict.ts";
import { errorMessage } from "../tool/errors.ts";

export interface HookDeps {
  analyzeBash: (command: string) => Promise<BashAnalysis>;
  /** Records an event (the audit log, and telemetry when on), with the policy it was decided under. */
  audit: (event: AuditEvent, policy?: Pick<PolicyState, "digests">) => void;
  /** HOME, CLAUDE_CONFIG_DIR and the other variables policy files are found by; default process.env. */
  env?: Record<string, string | undefined>;
  /** How policy sources are compiled (the resident helper keeps a CompileCache); default directly. */
  compiler?: PolicyCompiler;
  /** This toolrt as argv, for commands rewritten to run under `toolrt sandbox`; default this process. */
  self?: string[];
}

/** The host's permission modes that only widen what runs unasked: toolrt judges in them too. */
const WIDENING_MODES = new Set(["acceptEdits", "bypassPermissions"]);

/** Runs one hook call; returns what to print on stdout. Never throws. */
export async function runHook(
  stdin: string,
  invocation: HookInvocation,
  globals: GlobalOptions,
  deps: HookDeps,
): Promise<string> {
  const { host } = invocation;
  const protocol = PROTOCOLS[host];
  const event = readEvent(stdin, protocol.read);
  const invokedBy = `hook:${host}`;
  if (event.kind === "ignored") {
    record(deps, {
      kind: "notice",
      invokedBy,
      detail: `${event.hostEvent || "event"} ignored: ${event.why}`,
    });
    return "";
  }
  if (event.kind === "post") {
    recordPost(deps, event, invokedBy);
    return "";
  }
  const sandbox = invocation.sandbox && protocol.replacesInput;
  const judgedIn = globalsFor(event, globals, projectDirOf(protocol.projectDirVariable, deps.env), host);
  const { verdict, deciding, policy } = await judge(event, judgedIn, deps, sandbox);
  const { decision: _, ...decided } = deciding ? decisionFields(deciding) : {};
  record(deps, {
    kind: "hook",
    tool: event.hostTool,
    ...(event.toolUseId ? { toolUseId: event.toolUseId } : {}),
    inputDigest: digestInput(event.calls),
    input: auditableInput(event.calls),
    ...decided,
    ...(verdict.decision === "none" ? {} : { decision: verdict.decision }),
    reason: verdict.reason,
    mode: judgedIn.mode,
    ...(policy ? { policyDigest: policyDigestsOf(policy.state).digest } : {}),
    invokedBy,
    ...(event.sessionId ? { sessionId: event.sessionId } : {}),
    ...(event.cwd ? { cwd: event.cwd } : {}),
    detail: `answered ${verdict.decision}${verdict.command === undefined ? "" : " (in the sandbox)"}`,
  }, policy?.state);
  return protocol.answer(verdict, event);
}

function readEvent(stdin: string, read: (payload: unknown) => HookEvent): HookEvent {
  let payload: unknown;
  try {
    payload = JSON.parse(stdin);
  } catch {
    return { kind: "ignored", hostEvent: "", why: `stdin is not JSON (${stdin.length} characters)` };
  }
  try {
    return read(payload);
  } catch (error) {
    return { kind: "ignored", hostEvent: "", why: `unreadable payload: ${errorMessage(error)}` };
  }
}

interface Judged {
  verdict: Verdict;
  /** The decision the verdict follows (the first deny, hard ask, ask, or allow), for the record. */
  deciding?: Decision;
  policy?: Policy;
}

async function judge(
  event: PreToolEvent,
  globals: GlobalOptions,
  deps: HookDeps,
  sandbox: boolean,
): Promise<Judged> {
  if (event.calls.length === 0) {
    return {
      verdict: { decision: "none", reason: `toolrt does not judge ${event.hostTool} calls`, warnings: [] },
    };
  }
  let policy: Policy;
  try {
    policy = loadPolicy({
      ...loadOptionsOf(globals),
      ...(deps.env ? { env: deps.env } : {}),
      ...(deps.compiler ? { compiler: deps.compiler } : {}),
    }).policy;
  } catch (error) {
    return {
      verdict: {
        decision: "deny",
        reason: `toolrt could not load its policy (${errorMessage(error)})`,
        warnings: [],
      },
    };
  }
  try {
    const placed = event.calls.map((call) => startOf(call, globals));
    const [only] = event.calls;
    const [onlyIn] = placed;
    if (sandbox && event.calls.length === 1 && only?.tool === "Bash" && onlyIn && "cwd" in onlyIn) {
      return { ...await sandboxedVerdict(only, event, policy, onlyIn, deps), policy };
    }
    const decisions: Decision[] = [];
    for (const [i, call] of event.calls.entries()) {
      const place = placed[i]!;
      if ("cwd" in place) {
        decisions.push(await decideCall(call, policy, place, deps));
        continue;
      }
      // Where it runs is unknown: a denial from anywhere still stands, anything else needs a person.
      const decision = await decideCall(call, policy, globals, deps);
      decisions.push(
        decision.decision === "deny"
          ? decision
          : { ...decision, decision: "ask", hardAsk: true, reason: place.unreadable },
      );
    }
    const deciding = decisions.find((d) => d.decision === "deny") ??
      decisions.find((d) => d.decision === "ask" && d.hardAsk) ?? decisions.find((d) =>
        d.decision === "ask"
      ) ??
      decisions[0];
    return { verdict: verdictFor(decisions), ...(deciding ? { deciding } : {}), policy };
  } catch (error) {
    return {
      verdict: { decision: "none", reason: `toolrt failed to decide: ${errorMessage(error)}`, warnings: [] },
      policy,
    };
  }
}

/** The same evaluation as `toolrt check`, with the analyzer's result for Bash. */
async function decideCall(
  call: MappedCall,
  policy: Policy,
  globals: GlobalOptions,
  deps: HookDeps,
  placeOf?: (command: string) => ExecutionPlace,
) {
  if (call.tool === "Grep") {
    return hostGrepDecision(
      await checkCall(call.tool, call.input, policy, globals, {}),
      call.input,
      policy,
      globals,
    );
  }
  if (call.tool !== "Bash") return checkCall(call.tool, call.input, policy, globals, {});
  const analysis = await deps.analyzeBash((call.input as { command: string }).command);
  return checkCall(call.tool, call.input, policy, globals, { analyzeBash: () => analysis }, placeOf);
}

/**
 * `--sandbox`: the Bash call decided as `toolrt check --sandboxed` would. Deny, ask and allow come
 * out as without it; what the sandbox alone allows is answered allow with the command rewritten
 * to run under `toolrt sandbox` with the workspace's profile.
 */
async function sandboxedVerdict(
  call: MappedCall,
  event: PreToolEvent,
  policy: Policy,
  globals: GlobalOptions,
  deps: HookDeps,
): Promise<Judged> {
  const settings = policy.state.sandbox ?? DEFAULT_SANDBOX_POLICY;
  const home = (deps.env ?? process.env).HOME;
  const places = commandPlaces(settings, globals.cwd, { asksForHosts: false, ...(home ? { home } : {}) });
  // The host's own "leave the sandbox" flag (Claude Code's Bash has one) is a request to escape.
  const unsandboxed = event.hostInput?.dangerouslyDisableSandbox === true;
  const placeOf = (command: string): ExecutionPlace => {
    const place = places(command);
    return place.sandboxed && unsandboxed
      ? { ...place, context: { ...place.context, escapeRequested: true } }
      : place;
  };
  const decision = await decideCall(call, policy, globals, deps, placeOf);
  const verdict = verdictFor([decision]);
  if (!decision.sandbox?.autoAllowed) return { verdict, deciding: decision };
  const command = (call.input as { command: string }).command;
  const rules = programMasks(policy.rules);
  const masks = rules.length
    ? masksForLine(rules, namedPrograms((await deps.analyzeBash(command)).commands))
    : [];
  // The allow is shown where the prompt would have been: destructive warnings ride on it.
  const warned = verdict.warnings.length > 0
    ? `${verdict.reason}; warning: ${verdict.warnings.join("; ")}`
    : verdict.reason;
  return {
    verdict: {
      ...verdict,
      reason: warned,
      command: sandboxedCommand(command, settings, globals.cwd, deps.self ?? selfCommand(), masks),
    },
    deciding: decision,
  };
}

/**
 * Hook mode reads Claude Code's permission rules too. The workspace is the root the host names
 * (Cursor's `workspace_roots`, Claude Code's `CLAUDE_PROJECT_DIR`), else the cwd of the session's
 * first event (a host that keeps the shell's cwd moves the event's cwd with every `cd`), else the
 * event's cwd; shell commands start in the event's cwd.
 */
function globalsFor(
  event: PreToolEvent,
  globals: GlobalOptions,
  projectDir: string | undefined,
  host: string,
): GlobalOptions {
  const cwd = event.cwd?.startsWith("/") ? event.cwd : globals.cwd;
  const named = [event.root, projectDir].find((dir) => dir?.startsWith("/"));
  const root = named ??
    (event.sessionId ? sessionRoot(globals.stateDir, host, event.sessionId, cwd) : cwd);
  const mode = event.mode && WIDENING_MODES.has(event.mode)
    ? event.mode as GlobalOptions["mode"]
    : globals.mode;
  const { shellDir: _, ...rest } = globals;
  return { ...rest, cwd: root, ...(root === cwd ? {} : { shellDir: cwd }), mode, claudeSettings: true };
}

function projectDirOf(variable: string | undefined, env = process.env): string | undefined {
  return variable === undefined ? undefined : env[variable] || undefined;
}

function recordPost(deps: HookDeps, event: PostToolEvent, invokedBy: string): void {
  record(deps, {
    kind: "call",
    tool: event.hostTool,
    ...(event.toolUseId ? { toolUseId: event.toolUseId } : {}),
    inputDigest: digestInput(event.calls),
    input: auditableInput(event.calls),
    outcome: event.outcome,
    ...(event.durationMs !== undefined ? { durationMs: event.durationMs } : {}),
    invokedBy,
    ...(event.sessionId ? { sessionId: event.sessionId } : {}),
    ...(event.cwd ? { cwd: event.cwd } : {}),
    detail: event.hostEvent,
  });
}

function record(deps: HookDeps, event: AuditEvent, policy?: Pick<PolicyState, "digests">): void {
  try {
    deps.audit(event, policy);
  } catch (error) {
    process.stderr.write(`toolrt hook: could not write the audit log: ${errorMessage(error)}\n`);
  }
}
