/**
 * Claude Code: PreToolUse, PostToolUse and PostToolUseFailure (claude-code-compat.md §5). The
 * answer is `hookSpecificOutput.permissionDecision`; no decision is an empty stdout.
 */
import { claudeCalls } from "../claude-tools.ts";
import { fieldsOf, numberField, text } from "../payload.ts";
import type { HookEvent, HostProtocol, PreToolEvent, Verdict } from "../types.ts";

export const claudeCode: HostProtocol = {
  name: "claude-code",
  read: readClaudeShaped,
  replacesInput: true,
  // The payload's cwd is the shell's, which `cd` moves; the project root comes in the environment.
  projectDirVariable: "CLAUDE_PROJECT_DIR",
  answer: answerClaudeShaped,
};

/** Reads the payload shape Claude Code sends, which Codex and Copilot CLI's VS Code dialect share. */
export function readClaudeShaped(
  payload: unknown,
  mapTool: (tool: string, input: unknown) => ReturnType<typeof claudeCalls> = claudeCalls,
): HookEvent {
  const fields = fieldsOf(payload);
  const hostEvent = text(fields, "hook_event_name") ?? "";
  const base = {
    hostEvent,
    ...optional("cwd", text(fields, "cwd")),
    ...optional("sessionId", text(fields, "session_id")),
  };
  if (!fields) return { kind: "ignored", hostEvent, why: "the payload is not a JSON object" };
  const hostTool = text(fields, "tool_name");
  if (hostEvent !== "PreToolUse" && hostEvent !== "PostToolUse" && hostEvent !== "PostToolUseFailure") {
    return { ...base, kind: "ignored", why: `toolrt does not act on ${hostEvent || "an unnamed event"}` };
  }
  if (hostTool === undefined) return { ...base, kind: "ignored", why: `${hostEvent} without tool_name` };
  const calls = mapTool(hostTool, fields.tool_input);
  const call = { ...base, hostTool, calls, ...optional("toolUseId", text(fields, "tool_use_id")) };
  if (hostEvent === "PreToolUse") {
    return {
      ...call,
      kind: "pre",
      ...optional("mode", text(fields, "permission_mode")),
      ...optional("hostInput", fieldsOf(fields.tool_input)),
    };
  }
  return {
    ...call,
    kind: "post",
    outcome: hostEvent === "PostToolUse" ? "ok" : "error",
    ...optional("durationMs", numberField(fields, "duration_ms")),
  };
}

/**
 * `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":…}}`, or nothing. A
 * verdict with a command replaces the whole input (`updatedInput`), every other field kept.
 */
export function answerClaudeShaped(verdict: Verdict, event: PreToolEvent): string {
  if (verdict.decision === "none") {
    return verdict.warnings.length > 0 ? JSON.stringify({ systemMessage: warningMessage(verdict) }) : "";
  }
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: verdict.decision,
      permissionDecisionReason: verdict.reason,
      ...(verdict.command === undefined
        ? {}
        : { updatedInput: { ...event.hostInput, command: verdict.command } }),
    },
  });
}

export function warningMessage(verdict: Verdict): string {
  return `toolrt: ${verdict.warnings.join("; ")}`;
}

/** `{ key: value }` when the value is there, else nothing: keeps absent fields absent. */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : { [key]: value } as { [P in K]: V };
}
