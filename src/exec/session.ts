/**
 * A session ties one pool, one policy, the hooks, the state dir and the audit log to the pipeline.
 * It owns the tool context that calls share (read-before-write state, todos) and applies the context
 * changes a tool returns.
 */
import { randomUUID } from "node:crypto";
import { AuditLog } from "../audit/log.ts";
import type { ToolPool } from "../pool/tool-pool.ts";
import type { AnyTool, InvokedBy, PermissionMode, ToolContext } from "../tool/types.ts";
import { isCallConcurrencySafe, maxToolConcurrency } from "./concurrency.ts";
import type { HooksConfig } from "./hooks/config.ts";
import { partitionToolCalls, runPartitioned } from "./partition.ts";
import type { Policy } from "./permission.ts";
import { cleanupPersistedResults } from "./persist.ts";
import { executeToolCall, type ResultEnricher } from "./pipeline.ts";
import { enforceMessageBudget } from "./shape.ts";
import type { CallOutcome, ExecuteOptions, Session, ToolCall } from "./types.ts";

export interface SessionOptions {
  pool: ToolPool;
  policy: Policy;
  cwd: string;
  stateDir: string;
  mode: PermissionMode;
  invokedBy: InvokedBy;
  hooks?: HooksConfig;
  additionalDirs?: string[];
  sessionId?: string;
  /** Write the audit log (default true). */
  audit?: boolean;
  analyze?: (tool: AnyTool, input: unknown) => Promise<unknown>;
  grant?: (rule: string) => void;
  onDenied?: (toolName: string, input: unknown) => string | undefined;
  callTimeoutMs?: number;
  enrichers?: ResultEnricher[];
  agent?: ToolContext["agent"];
  /** Called by `close()`: stop MCP clients, language servers, background tasks. */
  onClose?: () => Promise<void>;
}

export interface RuntimeSession extends Session {
  readonly id: string;
  readonly context: ToolContext;
  /** Runs the calls of one model message: safe ones in parallel, results in call order, one budget. */
  executeAll(calls: ToolCall[], options?: ExecuteOptions): Promise<CallOutcome[]>;
}

export function createSession(options: SessionOptions): RuntimeSession {
  const id = options.sessionId ?? randomUUID();
  const audit = options.audit === false ? undefined : AuditLog.inStateDir(options.stateDir);
  cleanupPersistedResults(options.stateDir);
  let context: ToolContext = {
    cwd: options.cwd,
    additionalDirs: options.additionalDirs ?? [],
    stateDir: options.stateDir,
    mode: options.mode,
    invokedBy: options.invokedBy,
    abortSignal: new AbortController().signal,
    session: { readFiles: new Map(), todos: [] },
    agent: options.agent ?? { depth: 0 },
  };
  const deps = {
    pool: options.pool,
    policy: options.policy,
    hooks: options.hooks ?? {},
    sessionId: id,
    audit,
    analyze: options.analyze,
    grant: options.grant,
    onDenied: options.onDenied,
    callTimeoutMs: options.callTimeoutMs,
    enrichers: options.enrichers,
  };

  const execute = async (call: ToolCall, executeOptions?: ExecuteOptions) => {
    const outcome = await executeToolCall(call, context, deps, executeOptions);
    if (outcome.contextModifier) context = outcome.contextModifier(context);
    return outcome;
  };

  return {
    id,
    pool: options.pool,
    cwd: options.cwd,
    stateDir: options.stateDir,
    mode: options.mode,
    invokedBy: options.invokedBy,
    get context() {
      return context;
    },
    execute,
    async executeAll(calls, executeOptions) {
      const batches = partitionToolCalls(calls, (call) => isCallConcurrencySafe(options.pool.current, call));
      const outcomes = await runPartitioned(
        batches,
        (call) => execute(call, executeOptions),
        maxToolConcurrency(),
      );
      return enforceMessageBudget(outcomes, options.stateDir);
    },
    async close() {
      await options.onClose?.();
    },
  };
}
