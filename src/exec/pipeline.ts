/**
 * The execution pipeline: lookup → validate → (PreToolUse hooks ∥ analysis) → permission → run →
 * shape → PostToolUse hooks → emit. Each stage is its own function; this file only composes them.
 * Every failure, in any stage, becomes an is_error result: the process never dies of a tool call.
 */
import { decisionFields as explainedFields } from "../audit/decision.ts";
import type { AuditEvent, AuditLog } from "../audit/log.ts";
import { auditableInput, digestInput } from "../audit/log.ts";
import type { CallTrace, SpanContext, Telemetry } from "../telemetry/api.ts";
import type { ContentBlock } from "../tool/messages.ts";
import type { AnyTool, ToolContext, ToolResult } from "../tool/types.ts";
import type { ToolPool } from "../pool/tool-pool.ts";
import { errorMessage } from "../tool/errors.ts";
import { classifyToolError, toolUseError } from "./errors.ts";
import type { HooksConfig } from "./hooks/config.ts";
import type { HookOutcome } from "./hooks/outcome.ts";
import { type HookInvocation, NO_HOOKS, runAllHooks } from "./hooks/runner.ts";
import { type DiscoveryGate, lookupTool, type UnavailableReason } from "./lookup.ts";
import { decidePermission, type PermissionOutcome, type Policy } from "./permission.ts";
import { shapeResult, textLength } from "./shape.ts";
import type { CallFailure, CallOutcome, ExecuteOptions, ToolCall } from "./types.ts";
import { validateCall } from "./validate.ts";

/** Slightly above the Bash tool's own 10-minute maximum, so its own timeout reports first. */
const DEFAULT_CALL_TIMEOUT_MS = 11 * 60 * 1000;

export interface PipelineDeps {
  pool: ToolPool;
  policy: Policy;
  hooks: HooksConfig;
  /** Hooks from plugins: their "allow" never skips a prompt. */
  pluginHooks?: HooksConfig;
  sessionId: string;
  audit?: AuditLog;
  /** Decisions and calls go to telemetry too (from the same place as to the audit log), with spans. */
  telemetry?: Telemetry;
  /** The digest of the policy the session decides by, recorded with every decision. */
  policyDigest?: string;
  /** Per-tool analysis run in parallel with PreToolUse hooks (the Bash analyzer). */
  analyze?: (tool: AnyTool, input: unknown) => Promise<unknown>;
  /** Saves an "always allow" answer as a session rule. */
  grant?: (rule: string) => void;
  callTimeoutMs?: number;
  /**
   * Run after a successful call, each may add content blocks to the result (e.g. a language
   * server's diagnostics after an edit). A failing enricher is reported, never fatal.
   */
  enrichers?: ResultEnricher[];
  /** Model-driven sessions: deferred tools must be discovered before they are called. */
  discovery?: DiscoveryGate;
  /** Explains an unknown name whose source is not available now (an MCP server still connecting). */
  unavailable?: UnavailableReason;
}

export type ResultEnricher = (
  call: { tool: AnyTool; input: unknown; ctx: ToolContext },
) => Promise<ContentBlock[]>;

type Stage = { tool?: AnyTool; input: unknown; started: number; trace?: CallTrace };

export async function executeToolCall(
  call: ToolCall,
  ctx: ToolContext,
  deps: PipelineDeps,
  options: ExecuteOptions = {},
): Promise<CallOutcome> {
  const trace = deps.telemetry?.startCall(
    { tool: call.name, toolUseId: call.id, sessionId: deps.sessionId, invokedBy: ctx.invokedBy },
    options.traceParent,
  );
  trace?.stage("validate");
  const stage: Stage = { input: call.input, started: performance.now(), ...(trace ? { trace } : {}) };
  try {
    return await runStages(call, ctx, deps, options, stage);
  } catch (error) {
    // A stage itself failed (a bug or an I/O error): still a well-formed result.
    return finish(call, deps, ctx, stage, {
      isError: true,
      decision: "deny",
      content: [{
        type: "text",
        text: toolUseError(`Internal error while handling ${call.name}: ${errorMessage(error)}`),
      }],
      failure: "error",
      errorClass: classifyToolError(error),
      auditOutcome: "error",
    });
  }
}

async function runStages(
  call: ToolCall,
  ctx: ToolContext,
  deps: PipelineDeps,
  options: ExecuteOptions,
  stage: Stage,
): Promise<CallOutcome> {
  // 1. lookup
  const found = lookupTool(deps.pool.current, call.name, deps.discovery, deps.unavailable);
  if (!found.ok) return refuse(call, deps, ctx, stage, found.message, "unknown-tool");
  const tool = found.tool;
  stage.tool = tool;
  const notices = found.notice ? [found.notice] : [];

  // 2. validate
  let validated = await validateCall(tool, call.input, ctx);
  if (!validated.ok && validated.behavior === "deny") {
    return refuse(
      call,
      deps,
      ctx,
      stage,
      validated.message,
      validated.by === "schema" ? "invalid-input" : "error",
    );
  }
  let input = validated.ok ? validated.input : call.input;
  stage.input = input;

  // 3. PreToolUse hooks in parallel with analysis
  stage.trace?.stage("hooks");
  const hookCall = {
    toolName: tool.name,
    toolUseId: call.id,
    sessionId: deps.sessionId,
    cwd: ctx.cwd,
    permissionMode: ctx.mode,
  };
  let [hook, analysis] = await Promise.all([
    hooksOf(deps, { ...hookCall, event: "PreToolUse", toolInput: input }, options.signal),
    deps.analyze?.(tool, input),
  ]);
  reportHookProblems(deps, ctx, call, tool, hook);
  if (hook.updatedInput && hook.decision !== "deny") {
    validated = await validateCall(tool, hook.updatedInput, ctx);
    if (!validated.ok && validated.behavior === "deny") {
      return refuse(
        call,
        deps,
        ctx,
        stage,
        `The input a PreToolUse hook supplied is invalid: ${validated.message}`,
        "error",
      );
    }
    input = validated.ok ? validated.input : hook.updatedInput;
    stage.input = input;
    analysis = await deps.analyze?.(tool, input);
  }

  // 4. permission (a validation "ask" is a question for the person too)
  stage.trace?.stage("permission");
  const validationAsk: HookOutcome = !validated.ok
    ? { ...hook, decision: "ask", reason: validated.message }
    : hook;
  const toolPermission = await tool.checkPermissions(input, ctx);
  const permission = await decidePermission(
    { tool, input, ctx, toolPermission, analysis },
    deps.policy,
    hook.decision === "deny" ? hook : validationAsk,
    options.ask,
  );
  audit(
    deps,
    ctx,
    call,
    tool,
    input,
    { kind: "decision", ...decisionFields(permission) },
    stage.trace?.context,
  );
  if (permission.decision === "deny") {
    const text = permission.guidance ? `${permission.reason}\n\n${permission.guidance}` : permission.reason;
    return finish(call, deps, ctx, stage, {
      isError: true,
      decision: "deny",
      failure: "denied",
      content: [{ type: "text", text }],
      auditOutcome: "denied",
      permission,
    });
  }
  if (permission.grant) deps.grant?.(permission.grant);

  // 5. run
  stage.trace?.stage("run");
  const ran = await runTool(tool, input, ctx, deps, options);
  const decision = "allow" as const;
  if (!ran.ok) {
    const post = await hooksOf(deps, {
      ...hookCall,
      event: "PostToolUseFailure",
      toolInput: input,
      error: ran.message,
      isInterrupt: ran.interrupted,
      durationMs: elapsed(stage),
    });
    reportHookProblems(deps, ctx, call, tool, post);
    return finish(call, deps, ctx, stage, {
      isError: true,
      decision,
      failure: "error",
      content: withContext([{ type: "text", text: toolUseError(ran.message) }], post, notices),
      auditOutcome: ran.interrupted ? "interrupted" : "error",
      ...(ran.errorClass ? { errorClass: ran.errorClass } : {}),
      permission,
    });
  }

  // 6. shape (a stopped call keeps what it returned, marked as failed and saying why)
  stage.trace?.stage("shape");
  const result = ran.stopped ? { ...ran.result, isError: true } : ran.result;
  const content = tool.toContent(result.data, input);
  const shaped = shapeResult(content, tool.maxResultSizeChars, {
    stateDir: ctx.stateDir,
    toolUseId: call.id,
  });
  if (ran.stopped) {
    shaped.content = [{ type: "text", text: toolUseError(ran.stopped.message) }, ...shaped.content];
  }

  if (!result.isError && deps.enrichers?.length) {
    shaped.content = [...shaped.content, ...await enrich(deps, { tool, input, ctx }, call)];
  }

  // 7. PostToolUse hooks
  stage.trace?.stage("post_hooks");
  const post = await hooksOf(deps, {
    ...hookCall,
    event: result.isError ? "PostToolUseFailure" : "PostToolUse",
    isInterrupt: ran.stopped?.interrupted === true,
    toolInput: input,
    toolResponse: result.data,
    error: result.isError
      ? shaped.content.map((b) => (b.type === "text" ? b.text : "")).join("\n")
      : undefined,
    durationMs: elapsed(stage),
  });
  reportHookProblems(deps, ctx, call, tool, post);

  // 8. emit
  return finish(call, deps, ctx, stage, {
    isError: result.isError === true,
    decision,
    ...(result.isError ? { failure: "error" as const } : {}),
    content: withContext(shaped.content, post, notices),
    persistedPath: shaped.persistedPath ?? tool.persistedPathOf?.(result.data),
    outputChars: textLength(content),
    output: result.data,
    newMessages: result.newMessages,
    contextModifier: result.contextModifier,
    stopReason: hook.stopReason ?? post.stopReason,
    auditOutcome: ran.stopped?.interrupted ? "interrupted" : result.isError ? "error" : "ok",
    permission,
  });
}

type RunOutcome =
  | { ok: true; result: ToolResult; stopped?: Stopped }
  | { ok: false; message: string; interrupted: boolean; errorClass?: string };

/** The call was stopped (timeout or interrupt) but returned what it had within the grace period. */
interface Stopped {
  interrupted: boolean;
  message: string;
}

/** How long a stopped tool may take to hand back its partial result (output so far) before it is abandoned. */
const STOP_GRACE_MS = 2_000;

/** Stage 5: the call itself, with a timeout and interruption that honours `interruptBehavior`. */
async function runTool(
  tool: AnyTool,
  input: unknown,
  ctx: ToolContext,
  deps: PipelineDeps,
  options: ExecuteOptions,
): Promise<RunOutcome> {
  const controller = new AbortController();
  const timeoutMs = deps.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  let stopped: Stopped | undefined;
  let rejectAbandoned!: (error: Error) => void;
  const abandoned = new Promise<never>((_, reject) => (rejectAbandoned = reject));
  abandoned.catch(() => {});
  let grace: ReturnType<typeof setTimeout> | undefined;
  const stop = (why: Stopped) => {
    if (stopped) return;
    stopped = why;
    controller.abort(why.interrupted ? "interrupt" : "timeout");
    // The tool hears the abort and may return its output so far; past the grace period it is dropped.
    grace = setTimeout(() => rejectAbandoned(new Error(why.message)), STOP_GRACE_MS);
  };
  const timer = setTimeout(() => {
    const seconds = Math.round(timeoutMs / 1000);
    stop({ interrupted: false, message: `${tool.name} did not finish within ${seconds} s and was stopped.` });
  }, timeoutMs);
  // A "block" tool finishes what it started when the user interrupts; a "cancel" tool stops now.
  const onInterrupt = () => {
    if (tool.interruptBehavior() === "cancel") {
      stop({ interrupted: true, message: `${tool.name} was interrupted by the user.` });
    }
  };
  if (options.signal?.aborted) onInterrupt();
  options.signal?.addEventListener("abort", onInterrupt, { once: true });
  try {
    const runCtx: ToolContext = { ...ctx, abortSignal: controller.signal };
    const result = await Promise.race([
      tool.call(input, runCtx, options.onProgress ?? (() => {})),
      abandoned,
    ]);
    return stopped ? { ok: true, result, stopped } : { ok: true, result };
  } catch (error) {
    if (stopped) return { ok: false, interrupted: stopped.interrupted, message: stopped.message };
    return {
      ok: false,
      interrupted: false,
      message: errorMessage(error),
      errorClass: classifyToolError(error),
    };
  } finally {
    clearTimeout(timer);
    clearTimeout(grace);
    options.signal?.removeEventListener("abort", onInterrupt);
  }
}

interface Finished {
  isError: boolean;
  decision: CallOutcome["decision"];
  failure?: CallFailure;
  content: ContentBlock[];
  auditOutcome: "ok" | "error" | "denied" | "interrupted";
  persistedPath?: string;
  /** The result's size before shaping, in characters. */
  outputChars?: number;
  output?: unknown;
  newMessages?: CallOutcome["newMessages"];
  contextModifier?: ToolResult["contextModifier"];
  stopReason?: string;
  permission?: PermissionOutcome;
  /** For a failed call, the telemetry-safe class of what was thrown. */
  errorClass?: string;
}

function refuse(
  call: ToolCall,
  deps: PipelineDeps,
  ctx: ToolContext,
  stage: Stage,
  message: string,
  failure: CallFailure,
) {
  const text = message.startsWith("<tool_use_error>") ? message : toolUseError(message);
  // Refused before the permission stage: reported as "deny" (nothing was allowed to run).
  return finish(call, deps, ctx, stage, {
    isError: true,
    decision: "deny",
    failure,
    content: [{ type: "text", text }],
    auditOutcome: "error",
  });
}

function finish(
  call: ToolCall,
  deps: PipelineDeps,
  ctx: ToolContext,
  stage: Stage,
  done: Finished,
): CallOutcome {
  const durationMs = elapsed(stage);
  audit(deps, ctx, call, stage.tool, stage.input, {
    kind: "call",
    outcome: done.auditOutcome,
    durationMs,
    ...(done.errorClass ? { errorClass: done.errorClass } : {}),
    ...(done.outputChars !== undefined
      ? { outputChars: done.outputChars, persisted: !!done.persistedPath }
      : {}),
    ...(done.permission ? decisionFields(done.permission) : { decision: done.decision }),
  }, stage.trace?.context);
  stage.trace?.end(
    {
      "gen_ai.tool.name": stage.tool?.name ?? call.name,
      "toolrt.decision": done.permission?.decision ?? done.decision,
      "toolrt.outcome": done.auditOutcome,
    },
    done.isError ? done.auditOutcome : undefined,
  );
  return {
    toolUseId: call.id,
    toolName: stage.tool?.name ?? call.name,
    isError: done.isError,
    content: done.content,
    decision: done.decision,
    ...(done.failure ? { failure: done.failure } : {}),
    ...(done.persistedPath ? { persistedPath: done.persistedPath } : {}),
    ...(done.output !== undefined ? { output: done.output } : {}),
    ...structuredContentOf(stage.tool, done.output),
    ...(done.newMessages ? { newMessages: done.newMessages } : {}),
    ...(done.contextModifier ? { contextModifier: done.contextModifier } : {}),
    ...(done.stopReason !== undefined ? { stopReason: done.stopReason } : {}),
    durationMs,
  };
}

/** The tool's structured result of a call that ran, when the tool gives one. */
function structuredContentOf(tool: AnyTool | undefined, output: unknown): { structuredContent?: unknown } {
  if (output === undefined || !tool?.structuredContent) return {};
  const structured = tool.structuredContent(output);
  return structured === undefined ? {} : { structuredContent: structured };
}

/** What decided: the policy's explained decision, unless a hook or a person decided instead. */
function decisionFields(permission: PermissionOutcome) {
  return {
    ...(permission.explained ? explainedFields(permission.explained) : {}),
    decision: permission.decision,
    reason: permission.reason,
    ...(permission.decidedBy ? { source: permission.decidedBy } : {}),
    ...(!permission.explained && permission.rule ? { rule: permission.rule } : {}),
    ...(!permission.explained && permission.source && !permission.decidedBy
      ? { source: permission.source }
      : {}),
  };
}

/** The one place a call's decisions and outcomes are recorded: the audit log, then telemetry. */
function audit(
  deps: PipelineDeps,
  ctx: ToolContext,
  call: ToolCall,
  tool: AnyTool | undefined,
  input: unknown,
  fields: AuditEvent,
  span?: SpanContext,
): void {
  const event: AuditEvent = {
    ...fields,
    tool: tool?.name ?? call.name,
    toolUseId: call.id,
    inputDigest: digestInput(input),
    input: auditableInput(input),
    invokedBy: ctx.invokedBy,
    sessionId: deps.sessionId,
    mode: ctx.mode,
    ...(deps.policyDigest ? { policyDigest: deps.policyDigest } : {}),
  };
  const record = deps.audit?.append(event);
  deps.telemetry?.record(record ?? event, span);
}

function reportHookProblems(
  deps: PipelineDeps,
  ctx: ToolContext,
  call: ToolCall,
  tool: AnyTool,
  hook: HookOutcome,
) {
  if (hook === NO_HOOKS) return;
  for (const problem of hook.problems) {
    audit(deps, ctx, call, tool, undefined, { kind: "hook", detail: problem });
  }
}

function hooksOf(deps: PipelineDeps, call: HookInvocation, signal?: AbortSignal) {
  return runAllHooks({ configured: deps.hooks, plugins: deps.pluginHooks }, call, signal);
}

async function enrich(
  deps: PipelineDeps,
  subject: Parameters<ResultEnricher>[0],
  call: ToolCall,
): Promise<ContentBlock[]> {
  const added = await Promise.all((deps.enrichers ?? []).map(async (enricher) => {
    try {
      return await enricher(subject);
    } catch (error) {
      audit(deps, subject.ctx, call, subject.tool, undefined, {
        kind: "notice",
        detail: `result enricher failed: ${errorMessage(error)}`,
      });
      return [];
    }
  }));
  return added.flat();
}

/** Hook context and notices ride along after the result, as separate text blocks. */
function withContext(content: ContentBlock[], hook: HookOutcome, notices: string[]): ContentBlock[] {
  const extra = [...notices, ...hook.additionalContext].map((text): ContentBlock => ({
    type: "text",
    text: `<system-reminder>\n${text}\n</system-reminder>`,
  }));
  return extra.length ? [...content, ...extra] : content;
}

function elapsed(stage: Stage): number {
  return Math.round((performance.now() - stage.started) * 1000) / 1000;
}
