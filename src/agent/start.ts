/**
 * One agent run with everything attached: the base tools plus the Agent tool, a session for the
 * pool, subagents one level down, and the loop. `toolrt agent` and the end-to-end tests both
 * start agents through here.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { RuntimeSession } from "../exec/session.ts";
import type { Asker } from "../exec/types.ts";
import type { PoolOptions } from "../pool/assemble.ts";
import { ToolPool } from "../pool/tool-pool.ts";
import type { AnyTool, ToolContext, ToolProgress } from "../tool/types.ts";
import type { AgentDefinition } from "./definitions.ts";
import { runAgent } from "./loop.ts";
import type { RetryPolicy } from "./retry.ts";
import type { ResultLine, StreamJsonLine } from "./stream-json.ts";
import { SubagentHost } from "./subagents.ts";

export interface StartAgentOptions {
  client: Anthropic;
  model: string;
  prompt: string;
  /** The tools of the main agent, without the Agent tool (added here, per level). */
  baseTools: readonly AnyTool[];
  poolOptions: PoolOptions;
  /** A session over a pool, for the main agent and each subagent alike. */
  openSession(pool: ToolPool, agent: ToolContext["agent"]): RuntimeSession;
  definitions: readonly AgentDefinition[];
  stateDir: string;
  emit: (line: StreamJsonLine) => void;
  ask?: Asker;
  signal?: AbortSignal;
  maxTurns?: number;
  retryPolicy?: RetryPolicy;
  /** Depth of this agent (0 unless it continues a nested one). */
  depth?: number;
  onProgress?: (progress: ToolProgress) => void;
}

export async function startAgent(options: StartAgentOptions): Promise<ResultLine> {
  const depth = options.depth ?? 0;
  const host = new SubagentHost({
    client: options.client,
    model: options.model,
    baseTools: options.baseTools,
    poolOptions: options.poolOptions,
    openSession: options.openSession,
    definitions: options.definitions,
    depth,
    stateDir: options.stateDir,
    ask: options.ask,
    notify: options.emit,
    retryPolicy: options.retryPolicy,
    maxTurns: options.maxTurns,
  });
  const pool = new ToolPool([...options.baseTools, host.agentTool()], options.poolOptions);
  const session = options.openSession(pool, { depth });
  try {
    return await runAgent({
      client: options.client,
      session,
      prompt: options.prompt,
      model: options.model,
      maxTurns: options.maxTurns,
      signal: options.signal,
      ask: options.ask,
      emit: options.emit,
      retryPolicy: options.retryPolicy,
      background: host.background,
      agentTypes: options.definitions.map((d) => d.name),
      onProgress: options.onProgress,
    });
  } finally {
    await session.close();
  }
}
