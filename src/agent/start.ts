/**
 * One agent run with everything attached: the base tools plus the Agent tool, a session for the
 * pool, subagents one level down, and the loop. `toolrt agent` and the end-to-end tests both
 * start agents through here.
 */
import type { ToolProgress } from "../tool/types.ts";
import { runAgent } from "./loop.ts";
import type { ResultLine, StreamJsonLine } from "./stream-json.ts";
import { type AgentRuntime, SubagentHost } from "./subagents.ts";

export interface StartAgentOptions extends AgentRuntime {
  prompt: string;
  emit: (line: StreamJsonLine) => void;
  signal?: AbortSignal;
  /** Depth of this agent (0 unless it continues a nested one). */
  depth?: number;
  onProgress?: (progress: ToolProgress) => void;
}

export async function startAgent(options: StartAgentOptions): Promise<ResultLine> {
  const depth = options.depth ?? 0;
  const host = new SubagentHost({ ...options, depth, notify: options.emit });
  const pool = options.makePool([...options.baseTools, host.agentTool()]);
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
