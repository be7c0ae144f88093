/** Runs every matching hook of an event in parallel and combines what they said. */
import { handlersFor, type HookEvent, type HooksConfig } from "./config.ts";
import { combineHookResults, type HookOutcome, mergeHookOutcomes } from "./outcome.ts";
import { runCommandHook } from "./run-command.ts";

export interface HookInvocation {
  event: HookEvent;
  toolName: string;
  toolUseId: string;
  toolInput: unknown;
  sessionId: string;
  cwd: string;
  permissionMode: string;
  /** PostToolUse: the tool's structured output. */
  toolResponse?: unknown;
  /** PostToolUseFailure: the error text. */
  error?: string;
  isInterrupt?: boolean;
  durationMs?: number;
}

export const NO_HOOKS: HookOutcome = Object.freeze({
  additionalContext: [],
  systemMessages: [],
  problems: [],
});

async function runHooks(
  config: HooksConfig,
  call: HookInvocation,
  signal?: AbortSignal,
): Promise<HookOutcome> {
  const handlers = handlersFor(config, call.event, call.toolName);
  if (handlers.length === 0) return NO_HOOKS;
  const payload = hookPayload(call);
  const env = {
    CLAUDE_PROJECT_DIR: call.cwd,
    CLAUDE_CODE_SESSION_ID: call.sessionId,
    TOOLRT_PROJECT_DIR: call.cwd,
    TOOLRT_SESSION_ID: call.sessionId,
  };
  const results = await Promise.all(
    handlers.map((handler) => runCommandHook(handler, payload, { cwd: call.cwd, env, signal })),
  );
  return combineHookResults(call.event, call.toolName, results);
}

/**
 * Runs the configured hooks and the plugins' hooks of an event together. A plugin hook may deny,
 * ask, add context or rewrite input, but its "allow" never skips a prompt: plugins cannot widen
 * what policy allows.
 */
export async function runAllHooks(
  hooks: { configured: HooksConfig; plugins?: HooksConfig },
  call: HookInvocation,
  signal?: AbortSignal,
): Promise<HookOutcome> {
  const [configured, plugins] = await Promise.all([
    runHooks(hooks.configured, call, signal),
    hooks.plugins ? runHooks(hooks.plugins, call, signal) : NO_HOOKS,
  ]);
  return plugins === NO_HOOKS ? configured : mergeHookOutcomes(configured, plugins, false);
}

/** The stdin payload, in Claude Code's field names so existing hooks work unchanged. */
function hookPayload(call: HookInvocation): Record<string, unknown> {
  return {
    session_id: call.sessionId,
    cwd: call.cwd,
    permission_mode: call.permissionMode,
    hook_event_name: call.event,
    tool_name: call.toolName,
    tool_input: call.toolInput,
    tool_use_id: call.toolUseId,
    ...(call.event === "PostToolUse"
      ? { tool_response: call.toolResponse, duration_ms: call.durationMs }
      : {}),
    ...(call.event === "PostToolUseFailure"
      ? { error: call.error, is_interrupt: call.isInterrupt ?? false, duration_ms: call.durationMs }
      : {}),
  };
}
