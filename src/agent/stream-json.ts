/**
 * The lines of `toolrt agent --output-format stream-json`, in the shapes of Claude Code's headless
 * stream-json (claude-code-compat.md §6), so existing consumers of that format work unchanged.
 * The same lines are toolrt's own transcript format: `toolrt render` reads them back.
 */
import { randomUUID } from "node:crypto";
import type { CallOutcome } from "../exec/types.ts";

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface InitLine {
  type: "system";
  subtype: "init";
  cwd: string;
  session_id: string;
  tools: string[];
  mcp_servers: { name: string; status: string }[];
  model: string;
  permissionMode: string;
  apiKeySource: string;
  agents: string[];
  /** Marks toolrt's own transcripts (Claude Code writes `claude_code_version` here). */
  toolrt_version: string;
  uuid: string;
}

export interface ApiRetryLine {
  type: "system";
  subtype: "api_retry";
  attempt: number;
  max_retries: number;
  retry_delay_ms: number;
  error_status: number | null;
  error: string;
  session_id: string;
  uuid: string;
}

/** Something the parent session must see now: a subagent's permission question, a notice. */
export interface NoticeLine {
  type: "system";
  subtype: "subagent_permission_request" | "task_notification";
  session_id: string;
  uuid: string;
  agent_id: string;
  agent_type: string;
  description: string;
  text: string;
  tool_name?: string;
  tool_input?: unknown;
}

export interface AssistantLine {
  type: "assistant";
  message: {
    id: string;
    type: "message";
    role: "assistant";
    model: string;
    /** Exactly one block per line; the blocks of one API message share `id`. */
    content: unknown[];
    stop_reason: null;
    stop_sequence: null;
    usage: Partial<Usage>;
  };
  parent_tool_use_id: string | null;
  session_id: string;
  uuid: string;
}

export interface UserLine {
  type: "user";
  message: { role: "user"; content: unknown[] | string };
  parent_tool_use_id: string | null;
  session_id: string;
  uuid: string;
  timestamp: string;
  /** The tool's structured output, or `"Error: <text>"` when the call was refused or failed. */
  tool_use_result?: unknown;
}

export type ResultSubtype = "success" | "error_max_turns" | "error_during_execution";

export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: unknown;
}

export interface ResultLine {
  type: "result";
  subtype: ResultSubtype;
  is_error: boolean;
  duration_ms: number;
  duration_api_ms: number;
  num_turns: number;
  result: string;
  stop_reason: string | null;
  session_id: string;
  total_cost_usd: number;
  usage: Usage;
  permission_denials: PermissionDenial[];
  terminal_reason: "completed" | "max_turns" | "interrupted" | "api_error" | "hook_stopped";
  uuid: string;
}

export type StreamJsonLine = InitLine | ApiRetryLine | NoticeLine | AssistantLine | UserLine | ResultLine;

export const newUuid = (): string => randomUUID();

export function emptyUsage(): Usage {
  return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

export function addUsage(total: Usage, more: Partial<Usage> | null | undefined): void {
  if (!more) return;
  total.input_tokens += more.input_tokens ?? 0;
  total.output_tokens += more.output_tokens ?? 0;
  total.cache_creation_input_tokens += more.cache_creation_input_tokens ?? 0;
  total.cache_read_input_tokens += more.cache_read_input_tokens ?? 0;
}

/** The user line carrying one tool result, with Claude Code's `tool_use_result`. */
export function toolResultLine(
  outcome: CallOutcome,
  sessionId: string,
  parentToolUseId: string | null,
): UserLine {
  const text = outcome.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
  return {
    type: "user",
    message: {
      role: "user",
      content: [{
        type: "tool_result",
        tool_use_id: outcome.toolUseId,
        content: outcome.content,
        is_error: outcome.isError,
      }],
    },
    parent_tool_use_id: parentToolUseId,
    session_id: sessionId,
    uuid: newUuid(),
    timestamp: new Date().toISOString(),
    tool_use_result: outcome.output !== undefined ? outcome.output : `Error: ${text}`,
  };
}
