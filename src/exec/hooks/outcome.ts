/**
 * What hook processes said, in Claude Code's protocol: exit 2 blocks (stderr is the reason), JSON on
 * stdout carries decisions, other exit codes are reported and ignored. Several hooks combine as
 * deny > defer > ask > allow.
 */
import type { HookEvent } from "./config.ts";
import type { HookProcessResult } from "./run-command.ts";

export type HookDecision = "allow" | "deny" | "ask" | "defer";

export interface HookOutcome {
  decision?: HookDecision;
  reason?: string;
  /** A full replacement of the tool input (PreToolUse). */
  updatedInput?: Record<string, unknown>;
  /** Texts for the model, appended after the tool result. */
  additionalContext: string[];
  /** `continue: false`: the call still completes, then the loop stops. */
  stopReason?: string;
  systemMessages: string[];
  /** Hooks that crashed, timed out or printed something unusable: reported, never fatal. */
  problems: string[];
}

const RANK: Record<HookDecision, number> = { deny: 4, defer: 3, ask: 2, allow: 1 };

export function combineHookResults(
  event: HookEvent,
  toolName: string,
  results: HookProcessResult[],
): HookOutcome {
  const outcome: HookOutcome = { additionalContext: [], systemMessages: [], problems: [] };
  for (const result of results) {
    if (result.spawnError) {
      outcome.problems.push(`${event} hook [${result.command}] could not start: ${result.spawnError}`);
      continue;
    }
    if (result.timedOut) {
      outcome.problems.push(`${event} hook [${result.command}] timed out and was stopped`);
      continue;
    }
    const json = parseHookJson(result, outcome.problems, event);
    if (result.exitCode === 2) {
      const message = `${event}:${toolName} hook error: [${result.command}]: ${result.stderr.trim()}`;
      adopt(outcome, event === "PreToolUse" ? "deny" : undefined, message);
      if (event !== "PreToolUse") outcome.additionalContext.push(message);
    } else if (result.exitCode !== 0) {
      outcome.problems.push(
        `${event} hook [${result.command}] exited ${result.exitCode}: ${result.stderr.trim()}`,
      );
    }
    if (json) applyJson(outcome, event, json);
  }
  return outcome;
}

function parseHookJson(result: HookProcessResult, problems: string[], event: HookEvent) {
  const text = result.stdout.trim();
  if (!text.startsWith("{")) return undefined;
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null ? value as Record<string, any> : undefined;
  } catch {
    problems.push(`${event} hook [${result.command}] printed output that is not valid JSON; it was ignored`);
    return undefined;
  }
}

function applyJson(outcome: HookOutcome, event: HookEvent, json: Record<string, any>): void {
  const specific = typeof json.hookSpecificOutput === "object" && json.hookSpecificOutput
    ? json.hookSpecificOutput
    : {};
  if (event === "PreToolUse") {
    const decision = specific.permissionDecision ?? legacyDecision(json.decision);
    if (decision === "allow" || decision === "deny" || decision === "ask" || decision === "defer") {
      adopt(outcome, decision, specific.permissionDecisionReason ?? json.reason);
    }
    if (isRecord(specific.updatedInput) && outcome.updatedInput === undefined) {
      outcome.updatedInput = specific.updatedInput;
    }
  } else if (json.decision === "block" && typeof json.reason === "string") {
    outcome.additionalContext.push(json.reason);
  }
  if (typeof specific.additionalContext === "string") {
    outcome.additionalContext.push(`${event} hook additional context: ${specific.additionalContext}`);
  }
  if (json.continue === false) {
    outcome.stopReason = typeof json.stopReason === "string" ? json.stopReason : "";
  }
  if (typeof json.systemMessage === "string") outcome.systemMessages.push(json.systemMessage);
}

/** Deprecated top-level `decision: "approve" | "block"`. */
function legacyDecision(decision: unknown): HookDecision | undefined {
  return decision === "approve" ? "allow" : decision === "block" ? "deny" : undefined;
}

function adopt(outcome: HookOutcome, decision: HookDecision | undefined, reason: unknown): void {
  if (!decision) return;
  if (outcome.decision && RANK[outcome.decision] >= RANK[decision]) return;
  outcome.decision = decision;
  outcome.reason = typeof reason === "string" && reason ? reason : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
