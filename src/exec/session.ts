/**
 * A session ties one pool, one policy, the hooks, the state dir and the audit log to the pipeline.
 * It owns the tool context that calls share (read-before-write state, todos) and applies the context
 * changes a tool returns.
 */
import { randomUUID } from "node:crypto";
import { AuditLog } from "../audit/log.ts";
import type { ToolPool } from "../pool/tool-pool.ts";
import type { Telemetry } from "../telemetry/api.ts";
import { createToolContext } from "../tool/context.ts";
import type { AnyTool, InvokedBy, PermissionMode, ToolContext } from "../tool/types.ts";
import { isCallConcurrencySafe, maxToolConcurrency } from "./concurrency.ts";
import type { HooksConfig } from "./hooks/config.ts";
import type { DiscoveryGate, UnavailableReason } from "./lookup.ts";
import { partitionToolCalls, runPartitioned } from "./partition.ts";
import { taskRegistryFor } from "./processes/task-registry.ts";
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
  pluginHooks?: HooksConfig;
  additionalDirs?: string[];
  sessionId?: string;
  /** Write the audit log (default true). */
  audit?: boolean;
  /** Export decisions, calls and their spans (when telemetry is on). */
  telemetry?: Telemetry;
  /** The policy's digest, recorded with every decision. */
  policyDigest?: string;
  analyze?: (tool: AnyTool, input: unknown) => Promise<unknown>;
  grant?: (rule: string) => void;
  callTimeoutMs?: number;
  enrichers?: ResultEnricher[];
  discovery?: DiscoveryGate;
  /** Why a tool missing from the pool cannot be called now (its MCP server is not connected). */
  unavailable?: UnavailableReason;
  agent?: ToolContext["agent"];
  /** Session state to start from (a named session's files read and todos). */
  state?: ToolContext["session"];
  /** The Read rule that keeps a file from being shown without a person (see `ToolContext.readGuard`). */
  readGuard?: (path: string, ctx: ToolContext) => string | undefined;
  /** Called by `close()`: stop MCP clients, language servers, background tasks. */
  onClose?: () => Promise<void>;
}

export interface RuntimeSession extends Session {
  readonly id: string;
  readonly context: ToolContext;
  /** The session's telemetry, when it is on: the agent loop hangs its turns' spans here. */
  readonly telemetry?: Telemetry;
  /** Runs the calls of one model message: safe ones in parallel, results in call order, one budget. */
  executeAll(calls: ToolCall[], options?: ExecuteOptions): Promise<CallOutcome[]>;
}

export function createSession(options: SessionOptions): RuntimeSession {
  const id = options.sessionId ?? randomUUID();
  const audit = options.audit === false ? undefined : AuditLog.inStateDir(options.stateDir);
  cleanupPersistedResults(options.stateDir);
  let context = createToolContext({
    cwd: options.cwd,
    additionalDirs: options.additionalDirs,
    stateDir: options.stateDir,
    mode: options.mode,
    invokedBy: options.invokedBy,
    agent: options.agent,
    session: options.state,
  });
  const guard = options.readGuard;
  if (guard) context = { ...context, readGuard: (path) => guard(path, context) };
  const deps = {
    pool: options.pool,
    policy: options.policy,
    hooks: options.hooks ?? {},
    pluginHooks: options.pluginHooks,
    sessionId: id,
    audit,
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    ...(options.policyDigest ? { policyDigest: options.policyDigest } : {}),
    analyze: options.analyze,
    grant: options.grant,
    callTimeoutMs: options.callTimeoutMs,
    enrichers: options.enrichers,
    discovery: options.discovery,
    unavailable: options.unavailable,
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
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
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
      // Background tasks and exec sessions end with the session that started them.
      await taskRegistryFor(context.session).stopAll();
      await options.onClose?.();
    },
  };
}
