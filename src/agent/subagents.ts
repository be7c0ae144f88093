/**
 * Launches subagents for the Agent tool. Each subagent gets a pool filtered by its definition, a
 * session one level deeper, its own loop and its own stream-json transcript in the state dir.
 * Background subagents report through the parent's BackgroundTasks. A subagent's permission
 * questions go to the parent's asker, named by subagent, one at a time; with nobody to answer
 * they are refused and the refusal is shown to the parent — never silently denied.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { RuntimeSession } from "../exec/session.ts";
import type { AskAnswer, Asker, AskRequest } from "../exec/types.ts";
import type { ToolPool } from "../pool/tool-pool.ts";
import type { AnyTool, ToolContext } from "../tool/types.ts";
import { AGENT_TOOL_NAME, type AgentInput, type AgentOutput } from "../tools/agent/schema.ts";
import { createAgentTool, type SubagentLauncher } from "../tools/agent/tool.ts";
import { BackgroundTasks } from "./background.ts";
import type { AgentDefinition } from "./definitions.ts";
import { runAgent } from "./loop.ts";
import { resolveModel } from "./models.ts";
import type { RetryPolicy } from "./retry.ts";
import { newUuid, type NoticeLine, type StreamJsonLine } from "./stream-json.ts";

/** What running an agent needs, the same for the main agent and every subagent. */
export interface AgentRuntime {
  client: Anthropic;
  /** The model of the agent (what its subagents inherit). */
  model: string;
  /** Every tool an agent may be given, without the Agent tool (each level adds its own). */
  baseTools: readonly AnyTool[];
  /** The pool of an agent over these tools (the runtime adds what every pool has, e.g. ToolSearch). */
  makePool(tools: AnyTool[]): ToolPool;
  /** A session over a pool, with the policy, hooks and state dir of the run. */
  openSession(pool: ToolPool, agent: ToolContext["agent"]): RuntimeSession;
  definitions: readonly AgentDefinition[];
  stateDir: string;
  /** Answers permission questions; a subagent's are put to its parent's. */
  ask?: Asker;
  retryPolicy?: RetryPolicy;
  maxTurns?: number;
}

export interface SubagentHostOptions extends AgentRuntime {
  /** Depth of the agent this host serves (0 for the main agent). */
  depth: number;
  /** Shows a line in the top-level output (permission requests of subagents at any depth). */
  notify: (line: NoticeLine) => void;
}

interface AgentMeta {
  agentId: string;
  agentType: string;
  description: string;
}

export class SubagentHost implements SubagentLauncher {
  readonly background = new BackgroundTasks();
  readonly #o: SubagentHostOptions;
  /** Questions from several subagents are asked one after another. */
  #askQueue: Promise<unknown> = Promise.resolve();

  constructor(options: SubagentHostOptions) {
    this.#o = options;
  }

  get depth(): number {
    return this.#o.depth;
  }

  definitions(): readonly AgentDefinition[] {
    return this.#o.definitions;
  }

  /** The Agent tool of the agent this host serves. */
  agentTool(): AnyTool {
    return createAgentTool(this);
  }

  async launch(input: AgentInput, definition: AgentDefinition, signal: AbortSignal): Promise<AgentOutput> {
    const meta: AgentMeta = {
      agentId: `agent_${randomUUID().replace(/-/g, "").slice(0, 12)}`,
      agentType: definition.name,
      description: input.description,
    };
    const transcriptPath = join(this.#o.stateDir, "agents", `${meta.agentId}.jsonl`);
    const ref = {
      agentId: meta.agentId,
      subagentType: meta.agentType,
      description: meta.description,
      transcriptPath,
    };
    const run = (runSignal: AbortSignal) => this.#run(input, definition, meta, transcriptPath, runSignal);
    if (input.run_in_background === false) return { ...ref, ...(await run(signal)) };
    this.background.start({ ...meta, transcriptPath }, async (taskSignal) => {
      const done = await run(taskSignal);
      return { status: done.status, result: done.result };
    });
    return { ...ref, status: "async_launched" };
  }

  async #run(
    input: AgentInput,
    definition: AgentDefinition,
    meta: AgentMeta,
    transcriptPath: string,
    signal: AbortSignal,
  ): Promise<{ status: "completed" | "failed" | "interrupted"; result: string; numTurns: number }> {
    const model = resolveModel(input.model, definition.model, this.#o.model);
    const child = new SubagentHost({
      ...this.#o,
      model,
      depth: this.#o.depth + 1,
      ask: this.#askFor(meta),
    });
    const pool = this.#o.makePool(toolsFor(definition, this.#o.baseTools, child.agentTool()));
    const session = this.#o.openSession(pool, { depth: this.#o.depth + 1, type: definition.name });
    mkdirSync(join(this.#o.stateDir, "agents"), { recursive: true });
    try {
      const result = await runAgent({
        client: this.#o.client,
        session,
        prompt: input.prompt,
        model,
        systemPrompt: definition.systemPrompt || undefined,
        maxTurns: this.#o.maxTurns,
        signal,
        ask: child.#o.ask,
        emit: (line: StreamJsonLine) => appendFileSync(transcriptPath, `${JSON.stringify(line)}\n`),
        retryPolicy: this.#o.retryPolicy,
        background: child.background,
        agentTypes: this.#o.definitions.map((d) => d.name),
      });
      const status = result.terminal_reason === "interrupted"
        ? "interrupted"
        : result.is_error
        ? "failed"
        : "completed";
      return { status, result: result.result, numTurns: result.num_turns };
    } finally {
      await session.close();
    }
  }

  /** The asker a subagent's session uses: shown to the parent, then put to the parent's asker. */
  #askFor(meta: AgentMeta): Asker {
    return (request: AskRequest): Promise<AskAnswer> => {
      this.#o.notify({
        type: "system",
        subtype: "subagent_permission_request",
        session_id: meta.agentId,
        uuid: newUuid(),
        agent_id: meta.agentId,
        agent_type: meta.agentType,
        description: meta.description,
        text: request.reason,
        tool_name: request.toolName,
        tool_input: request.input,
      });
      const parentAsk = this.#o.ask;
      if (!parentAsk) {
        return Promise.resolve({
          behavior: "deny",
          message:
            `Subagent ${meta.agentType} (${meta.agentId}) needed permission for ${request.toolName} and ` +
            `nobody in the parent session could answer: ${request.reason}`,
        });
      }
      const named: AskRequest = {
        ...request,
        reason: `[subagent ${meta.agentType} ${meta.agentId}: ${meta.description}] ${request.reason}`,
      };
      const answer = this.#askQueue.then(() => parentAsk(named));
      this.#askQueue = answer.catch(() => undefined);
      return answer;
    };
  }
}

/** The definition's tools out of those the parent may hand on, with this level's own Agent tool. */
function toolsFor(definition: AgentDefinition, tools: readonly AnyTool[], agentTool: AnyTool): AnyTool[] {
  const wanted = definition.tools === "*" ? undefined : new Set(definition.tools);
  const allowed = (t: AnyTool) => !wanted || wanted.has(t.name) || t.aliases.some((a) => wanted.has(a));
  return [...tools.filter((t) => t.name !== AGENT_TOOL_NAME), agentTool].filter(allowed);
}
