/**
 * The agent loop on the Anthropic Messages API, written as explicit states:
 *
 *   request ──(tool_use blocks)──► collect-tools ──► request
 *      │  └──(end of turn, subagents still running)──► await-background ──► request
 *      └──(end of turn)──► done
 *
 * `request` streams one model answer; each tool_use block starts in the StreamingToolExecutor as
 * soon as it is complete. `collect-tools` waits for the results and sends them back. Interruption
 * (the signal) stops the stream and the tools by their interrupt behaviour; every tool_use still
 * gets its tool_result, so the conversation stays valid and the turn ends cleanly.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { platform } from "node:os";
import { isCallConcurrencySafe, maxToolConcurrency } from "../exec/concurrency.ts";
import type { RuntimeSession } from "../exec/session.ts";
import { enforceMessageBudget } from "../exec/shape.ts";
import { StreamingToolExecutor } from "../exec/streaming-executor.ts";
import type { Asker, CallOutcome } from "../exec/types.ts";
import type { ActiveSpan, SpanContext } from "../telemetry/api.ts";
import type { ToolProgress } from "../tool/types.ts";
import { type BackgroundTasks, notificationText } from "./background.ts";
import { type ApiContentBlock, type ApiMessage, streamModelTurn } from "./model-turn.ts";
import systemTemplate from "./prompts/system.md" with { type: "text" };
import { referencedTools, requestTools } from "./request-tools.ts";
import { ApiRequestError, DEFAULT_RETRY_POLICY, type RetryPolicy, withRetries } from "./retry.ts";
import {
  addUsage,
  emptyUsage,
  newUuid,
  type PermissionDenial,
  type ResultLine,
  type StreamJsonLine,
  toolResultLine,
  type Usage,
} from "./stream-json.ts";

const DEFAULT_MAX_TOKENS = 16_384;

export interface AgentRunOptions {
  client: Anthropic;
  session: RuntimeSession;
  prompt: string;
  model: string;
  /** Replaces the default system prompt. */
  systemPrompt?: string;
  /** Model requests allowed before the run stops with `error_max_turns`. */
  maxTurns?: number;
  maxTokens?: number;
  /** Aborting it interrupts the run (Ctrl-C). */
  signal?: AbortSignal;
  /** Answers permission questions; without one they become denials. */
  ask?: Asker;
  emit: (line: StreamJsonLine) => void;
  retryPolicy?: RetryPolicy;
  /** Where this run's background subagents report back. */
  background?: BackgroundTasks;
  /** Subagent names for the init line. */
  agentTypes?: string[];
  onProgress?: (progress: ToolProgress) => void;
}

type Done = {
  name: "done";
  subtype: ResultLine["subtype"];
  terminal: ResultLine["terminal_reason"];
  stopReason: string | null;
  /** Replaces the final assistant text as the result (errors). */
  error?: string;
};

type TurnExecutor = StreamingToolExecutor & { detach(): void };

type State =
  | { name: "request" }
  | { name: "collect-tools"; executor: TurnExecutor; calls: Map<string, unknown> }
  | { name: "await-background" }
  | Done;

/** Runs the loop to its end and returns the result line (also emitted). Never throws for API errors. */
export async function runAgent(options: AgentRunOptions): Promise<ResultLine> {
  const run = new AgentRun(options);
  run.emitInit();
  let state: State = { name: "request" };
  while (state.name !== "done") {
    switch (state.name) {
      case "request":
        state = await run.request();
        break;
      case "collect-tools":
        state = await run.collectTools(state.executor, state.calls);
        break;
      case "await-background":
        state = await run.awaitBackground();
        break;
    }
  }
  return run.finish(state);
}

class AgentRun {
  readonly #o: AgentRunOptions;
  readonly #signal: AbortSignal;
  readonly #messages: Anthropic.Messages.MessageParam[];
  readonly #usage: Usage = emptyUsage();
  readonly #denials: PermissionDenial[] = [];
  readonly #discovered = new Set<string>();
  readonly #started = performance.now();
  #apiMs = 0;
  #turns = 0;
  #lastText = "";
  #lastStopReason: string | null = null;
  /** With telemetry on: the run's span, and the running turn's (the parent of its tool calls). */
  readonly #runSpan: ActiveSpan | undefined;
  #turnSpan: ActiveSpan | undefined;

  constructor(options: AgentRunOptions) {
    this.#o = options;
    this.#signal = options.signal ?? new AbortController().signal;
    this.#messages = [{ role: "user", content: options.prompt }];
    this.#runSpan = options.session.telemetry?.startSpan("toolrt.agent", {
      "session.id": options.session.id,
      "gen_ai.request.model": options.model,
    });
  }

  get #sessionId(): string {
    return this.#o.session.id;
  }

  emitInit(): void {
    const session = this.#o.session;
    this.#o.emit({
      type: "system",
      subtype: "init",
      cwd: session.cwd,
      session_id: this.#sessionId,
      tools: session.pool.current.tools.map((t) => t.name),
      mcp_servers: [],
      model: this.#o.model,
      permissionMode: session.mode,
      apiKeySource: process.env.ANTHROPIC_API_KEY ? "ANTHROPIC_API_KEY" : "none",
      agents: this.#o.agentTypes ?? [],
      toolrt_version: "0.1.0",
      uuid: newUuid(),
    });
  }

  /** State `request`: one streamed model answer; its tool calls start as their blocks complete. */
  async request(): Promise<State> {
    if (this.#signal.aborted) return this.#interrupted();
    if (this.#o.maxTurns !== undefined && this.#turns >= this.#o.maxTurns) {
      return { name: "done", subtype: "error_max_turns", terminal: "max_turns", stopReason: null };
    }
    this.#deliverNotifications();
    this.#turnSpan = this.#o.session.telemetry?.startSpan(
      "toolrt.agent.turn",
      { "session.id": this.#sessionId, "toolrt.agent.turn": BigInt(this.#turns + 1) },
      this.#runSpan?.context,
    );
    const executor = this.#newExecutor(this.#turnSpan?.context);
    const calls = new Map<string, unknown>();
    const started = performance.now();
    let message: ApiMessage;
    try {
      message = await withRetries(
        () =>
          streamModelTurn({
            client: this.#o.client,
            params: this.#params(),
            signal: this.#signal,
            onBlock: (block, partial) => this.#onBlock(block, partial, executor, calls),
          }),
        {
          policy: this.#o.retryPolicy ?? DEFAULT_RETRY_POLICY,
          signal: this.#signal,
          // A retry would repeat tool calls that already started: only retry before the first one.
          canRetry: () => calls.size === 0,
          onRetry: (notice) =>
            this.#o.emit({
              type: "system",
              subtype: "api_retry",
              attempt: notice.attempt,
              max_retries: notice.maxRetries,
              retry_delay_ms: notice.delayMs,
              error_status: notice.failure.status,
              error: notice.failure.message,
              session_id: this.#sessionId,
              uuid: newUuid(),
            }),
        },
      );
    } catch (error) {
      this.#apiMs += performance.now() - started;
      const failed = await this.#requestFailed(error, executor, calls);
      this.#turnSpan?.end("the model request failed");
      return failed;
    }
    this.#apiMs += performance.now() - started;
    this.#turns++;
    addUsage(this.#usage, message.usage as Partial<Usage>);
    this.#lastStopReason = message.stop_reason;
    this.#messages.push({
      role: "assistant",
      content: message.content as Anthropic.Messages.ContentBlockParam[],
    });
    const text = textOf(message.content);
    if (text) this.#lastText = text;
    this.#turnSpan?.setAttributes({ "gen_ai.response.finish_reasons": [message.stop_reason ?? "unknown"] });
    if (calls.size > 0) return { name: "collect-tools", executor, calls };
    this.#turnSpan?.end();
    if ((this.#o.background?.pendingCount ?? 0) > 0) return { name: "await-background" };
    return { name: "done", subtype: "success", terminal: "completed", stopReason: message.stop_reason };
  }

  /** State `collect-tools`: the results, in call order, sent back as one user message. */
  async collectTools(executor: TurnExecutor, calls: Map<string, unknown>): Promise<State> {
    const outcomes = await this.#drain(executor, calls);
    executor.detach();
    this.#turnSpan?.end();
    const content: Anthropic.Messages.ContentBlockParam[] = outcomes.map((outcome) => ({
      type: "tool_result",
      tool_use_id: outcome.toolUseId,
      content: outcome.content as Anthropic.Messages.ToolResultBlockParam["content"],
      is_error: outcome.isError,
    }));
    for (const outcome of outcomes) {
      for (const extra of outcome.newMessages ?? []) {
        for (const block of extra.content) if (block.type === "text") content.push(block);
      }
    }
    this.#messages.push({ role: "user", content });
    if (this.#signal.aborted) return this.#interrupted();
    const stopped = outcomes.find((o) => o.stopReason !== undefined);
    if (stopped) {
      return { name: "done", subtype: "success", terminal: "hook_stopped", stopReason: "hook_stopped" };
    }
    return { name: "request" };
  }

  /** State `await-background`: the model is done but subagents still run; their reports come next. */
  async awaitBackground(): Promise<State> {
    const background = this.#o.background!;
    const interrupted = new Promise<"interrupted">((resolve) => {
      if (this.#signal.aborted) resolve("interrupted");
      this.#signal.addEventListener("abort", () => resolve("interrupted"), { once: true });
    });
    const next = await Promise.race([background.whenNotified().then(() => "notified" as const), interrupted]);
    return next === "interrupted" ? this.#interrupted() : { name: "request" };
  }

  finish(done: Done): ResultLine {
    // A subagent outlives neither an interrupted parent nor one that stopped early.
    this.#o.background?.abortAll(`the parent agent ended (${done.terminal})`);
    const isError = done.subtype !== "success";
    this.#turnSpan?.end();
    this.#runSpan?.setAttributes({
      "toolrt.agent.turns": BigInt(this.#turns),
      "toolrt.agent.terminal": done.terminal,
    });
    this.#runSpan?.end(isError ? done.error ?? done.terminal : undefined);
    const line: ResultLine = {
      type: "result",
      subtype: done.subtype,
      is_error: isError,
      duration_ms: Math.round(performance.now() - this.#started),
      duration_api_ms: Math.round(this.#apiMs),
      num_turns: this.#turns,
      result: done.error ?? this.#lastText,
      stop_reason: done.stopReason ?? this.#lastStopReason,
      session_id: this.#sessionId,
      total_cost_usd: 0,
      usage: this.#usage,
      permission_denials: this.#denials,
      terminal_reason: done.terminal,
      uuid: newUuid(),
    };
    this.#o.emit(line);
    return line;
  }

  #params(): Anthropic.Messages.MessageStreamParams {
    const session = this.#o.session;
    const system = this.#o.systemPrompt ??
      systemTemplate.replaceAll("{{cwd}}", session.cwd).replaceAll("{{platform}}", platform());
    return {
      model: this.#o.model,
      max_tokens: this.#o.maxTokens ?? DEFAULT_MAX_TOKENS,
      system,
      messages: this.#messages,
      tools: requestTools(session.pool.current, this.#discovered),
    };
  }

  /** The executor of one turn, stopped by the run's interrupt until `detach()`; its calls trace under the turn. */
  #newExecutor(turn: SpanContext | undefined): TurnExecutor {
    const session = this.#o.session;
    const executor = new StreamingToolExecutor(
      (call, signal) =>
        session.execute(call, {
          signal,
          ask: this.#o.ask,
          onProgress: this.#o.onProgress,
          ...(turn ? { traceParent: turn } : {}),
        }),
      (call) => isCallConcurrencySafe(session.pool.current, call),
      maxToolConcurrency(),
    );
    const onAbort = () => executor.abort("interrupted by the user");
    this.#signal.addEventListener("abort", onAbort, { once: true });
    return Object.assign(executor, { detach: () => this.#signal.removeEventListener("abort", onAbort) });
  }

  #onBlock(
    block: ApiContentBlock,
    message: ApiMessage,
    executor: TurnExecutor,
    calls: Map<string, unknown>,
  ): void {
    this.#o.emit({
      type: "assistant",
      message: {
        id: message.id,
        type: "message",
        role: "assistant",
        model: message.model,
        content: [block],
        stop_reason: null,
        stop_sequence: null,
        usage: message.usage as Partial<Usage>,
      },
      parent_tool_use_id: null,
      session_id: this.#sessionId,
      uuid: newUuid(),
    });
    if (block.type !== "tool_use" || this.#signal.aborted) return;
    calls.set(block.id, block.input);
    executor.addTool({ id: block.id, name: block.name, input: block.input });
  }

  /** Every started call's result, emitted; denials and discovered tools recorded. */
  async #drain(executor: TurnExecutor, calls: Map<string, unknown>): Promise<CallOutcome[]> {
    const collected: CallOutcome[] = [];
    for await (const outcome of executor.getRemainingResults()) collected.push(outcome);
    const outcomes = enforceMessageBudget(collected, this.#o.session.stateDir);
    for (const outcome of outcomes) {
      this.#o.emit(toolResultLine(outcome, this.#sessionId, null));
      if (isPermissionDenial(outcome)) {
        this.#denials.push({
          tool_name: outcome.toolName,
          tool_use_id: outcome.toolUseId,
          tool_input: calls.get(outcome.toolUseId),
        });
      }
      for (const name of referencedTools(outcome.content)) this.#discovered.add(name);
    }
    return outcomes;
  }

  async #requestFailed(
    error: unknown,
    executor: TurnExecutor,
    calls: Map<string, unknown>,
  ): Promise<State> {
    // Calls that started before the failure still end with a result, as the pipeline promises.
    if (calls.size > 0) {
      executor.abort(this.#signal.aborted ? "interrupted by the user" : "the model's answer broke off");
      await this.#drain(executor, calls);
    }
    executor.detach();
    if (this.#signal.aborted) return this.#interrupted();
    const message = error instanceof ApiRequestError ? error.message : String(error);
    return {
      name: "done",
      subtype: "error_during_execution",
      terminal: "api_error",
      stopReason: null,
      error: `API request failed: ${message}`,
    };
  }

  #interrupted(): Done {
    return {
      name: "done",
      subtype: "error_during_execution",
      terminal: "interrupted",
      stopReason: null,
      error: "Interrupted by the user.",
    };
  }

  /** Finished subagents' reports, added to the conversation before the next request. */
  #deliverNotifications(): void {
    const notifications = this.#o.background?.takeNotifications() ?? [];
    if (notifications.length === 0) return;
    const blocks = notifications.map((n): Anthropic.Messages.TextBlockParam => ({
      type: "text",
      text: notificationText(n),
    }));
    for (const n of notifications) {
      this.#o.emit({
        type: "system",
        subtype: "task_notification",
        session_id: this.#sessionId,
        uuid: newUuid(),
        agent_id: n.agentId,
        agent_type: n.agentType,
        description: n.description,
        text: `${n.status}: ${n.result}`,
      });
    }
    const last = this.#messages.at(-1)!;
    if (last.role === "user" && Array.isArray(last.content)) last.content.push(...blocks);
    else this.#messages.push({ role: "user", content: blocks });
  }
}

function textOf(content: readonly ApiContentBlock[]): string {
  return content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n").trim();
}

/** A refusal by policy, a hook or the person — not a malformed call (`<tool_use_error>`). */
function isPermissionDenial(outcome: CallOutcome): boolean {
  return outcome.failure === "denied";
}
