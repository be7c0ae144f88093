/**
 * The outside of the execution pipeline: what a caller (the agent loop, `toolrt run`,
 * `toolrt serve`, the hook adapter) hands in and what it gets back.
 */
import type { ContentBlock, Message } from "../tool/messages.ts";
import type { ToolPool } from "../pool/tool-pool.ts";
import type { SpanContext } from "../telemetry/api.ts";
import type { InvokedBy, PermissionMode, ToolContext, ToolProgress } from "../tool/types.ts";

export interface ToolCall {
  /** The provider's tool_use id (generated when the caller has none). */
  id: string;
  name: string;
  input: unknown;
}

export type Decision = "allow" | "ask" | "deny";

/** What the person (or the client standing in for one) is asked when policy says "ask". */
export interface AskRequest {
  toolName: string;
  input: unknown;
  /** Why it asks: the rule, the check, or the tool's own reason. */
  reason: string;
  warnings: string[];
  /** Rules that would allow this call if saved (`Bash(npm run:*)`). */
  suggestions: string[];
}

export type AskAnswer =
  | { behavior: "allow-once" }
  /** Saved as a session rule (or a local policy rule, when `rule` says so). */
  | { behavior: "allow-always"; rule?: string }
  | { behavior: "deny"; message?: string };

/** Answers "ask" decisions. Without one, an ask becomes a denial that says which rule would allow it. */
export type Asker = (request: AskRequest) => Promise<AskAnswer>;

/**
 * Why a call failed: no such tool, input that does not fit the tool's schema, a permission denial
 * (a rule, a hook or a person), or an error (the tool refused the input or failed while running).
 */
export type CallFailure = "unknown-tool" | "invalid-input" | "denied" | "error";

export interface CallOutcome {
  toolUseId: string;
  toolName: string;
  isError: boolean;
  /** What the model receives (already shaped: large results are previews with a path). */
  content: ContentBlock[];
  decision: Decision;
  /** Why the call failed, when it did (`isError`); callers map it to exit codes and labels. */
  failure?: CallFailure;
  /** Where the whole result was written when it was too large to send. */
  persistedPath?: string;
  /** The tool's structured output, when it ran. */
  output?: unknown;
  /** The structured result for clients that take one (MCP `structuredContent`), when the tool gives one. */
  structuredContent?: unknown;
  newMessages?: Message[];
  /** Applied by the session to the context of the calls that follow. */
  contextModifier?: (ctx: ToolContext) => ToolContext;
  /** A hook asked the loop to stop after this call (`continue: false`). */
  stopReason?: string;
  durationMs: number;
}

export interface ExecuteOptions {
  onProgress?: (progress: ToolProgress) => void;
  signal?: AbortSignal;
  ask?: Asker;
  /** The span the call's trace belongs under (the agent's turn, an MCP client's request). */
  traceParent?: SpanContext;
}

/** One session of tool use: a pool, the policy, hooks, state, and the pipeline that ties them. */
export interface Session {
  readonly pool: ToolPool;
  readonly cwd: string;
  readonly stateDir: string;
  readonly mode: PermissionMode;
  readonly invokedBy: InvokedBy;
  execute(call: ToolCall, options?: ExecuteOptions): Promise<CallOutcome>;
  close(): Promise<void>;
}
