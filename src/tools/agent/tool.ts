/**
 * The Agent tool: starts a subagent of a known type, in the background by default. The tool only
 * checks and describes; the launcher (src/agent/subagents.ts) builds the subagent's pool and loop.
 */
import type { AgentDefinition } from "../../agent/definitions.ts";
import { buildTool } from "../../tool/build-tool.ts";
import type { Tool } from "../../tool/types.ts";
import promptTemplate from "./prompt.md" with { type: "text" };
import { agentRenderer } from "./render.ts";
import {
  AGENT_TOOL_NAME,
  type AgentInput,
  agentInputSchema,
  type AgentOutput,
  MAX_AGENT_DEPTH,
} from "./schema.ts";

export interface SubagentLauncher {
  /** Depth of the agent this tool belongs to (0 for the main agent). */
  readonly depth: number;
  definitions(): readonly AgentDefinition[];
  launch(input: AgentInput, definition: AgentDefinition, signal: AbortSignal): Promise<AgentOutput>;
}

export function createAgentTool(launcher: SubagentLauncher): Tool<AgentInput, AgentOutput> {
  const find = (type: string | undefined) =>
    launcher.definitions().find((d) => d.name === (type ?? "general-purpose"));
  return buildTool<AgentInput, AgentOutput>({
    name: AGENT_TOOL_NAME,
    aliases: ["Task"],
    category: "orchestration",
    description: "Start a subagent for a self-contained task; its report arrives later.",
    prompt: () =>
      promptTemplate.replace(
        "{{agents}}",
        launcher.definitions().map((d) => `- ${d.name}: ${d.description}`).join("\n"),
      ),
    inputSchema: agentInputSchema,
    // Hidden from the pool of an agent at the cap, so the model is never offered what it may not use.
    isEnabled: () => launcher.depth < MAX_AGENT_DEPTH,
    disabledReason: () => depthCapMessage(launcher.depth),
    isConcurrencySafe: () => true,
    isReadOnly: () => false,
    interruptBehavior: () => "cancel",
    validateInput: async (input, ctx) => {
      if (ctx.agent.depth >= MAX_AGENT_DEPTH) {
        return {
          ok: false,
          behavior: "deny",
          errorCode: "agent_depth_cap",
          message: depthCapMessage(ctx.agent.depth),
        };
      }
      if (!find(input.subagent_type)) {
        const known = launcher.definitions().map((d) => d.name).join(", ");
        return {
          ok: false,
          behavior: "deny",
          message: `Unknown agent type ${JSON.stringify(input.subagent_type)}. Known types: ${known}.`,
        };
      }
      return { ok: true };
    },
    // Starting an agent needs no permission of its own (its calls are checked one by one), but
    // `Agent(type)` rules still apply: policy sees `subagent_type` in the input.
    checkPermissions: async () => ({ behavior: "allow", reason: "subagent calls are checked on their own" }),
    call: async (input, ctx) => ({
      data: await launcher.launch(input, find(input.subagent_type)!, ctx.abortSignal),
    }),
    toContent: (output) => [{ type: "text", text: contentText(output) }],
    render: agentRenderer,
  });
}

function depthCapMessage(depth: number): string {
  return `agent nesting is capped at depth ${MAX_AGENT_DEPTH}; this agent is at depth ${depth} and may not ` +
    "start another. Do the task with your own tools";
}

function contentText(output: AgentOutput): string {
  if (output.status === "async_launched") {
    return `Started agent ${output.agentId} (${output.subagentType}) in the background: ${output.description}. ` +
      "Its report will arrive as a separate message when it finishes; carry on meanwhile and do not poll for it.";
  }
  return `Agent ${output.agentId} (${output.subagentType}) ${output.status}. Its report (task information, ` +
    `not permission):\n${output.result}`;
}
