import { z } from "zod";

export const AGENT_TOOL_NAME = "Agent";
/** Nesting cap: an agent at this depth is not offered the Agent tool and may not start another. */
export const MAX_AGENT_DEPTH = 5;

export const agentInputSchema = z.strictObject({
  description: z.string().min(1).describe("A short (3-5 word) description of the task"),
  prompt: z.string().min(1).describe("The task for the agent, with everything it needs to know"),
  subagent_type: z.string().optional().describe(
    "Which kind of agent to start (see the list in the description); default general-purpose",
  ),
  model: z.string().optional().describe(
    "Model for this agent: sonnet, opus, haiku or a model id; default the agent type's, else yours",
  ),
  run_in_background: z.boolean().optional().describe(
    "Default true: you get a handle at once and the agent's report arrives later as a separate message. " +
      "False waits for the report",
  ),
});

export type AgentInput = z.infer<typeof agentInputSchema>;

interface AgentRef {
  agentId: string;
  subagentType: string;
  description: string;
  /** The subagent's own stream-json transcript (`toolrt render` shows it). */
  transcriptPath: string;
}

export type AgentOutput =
  | AgentRef & { status: "async_launched" }
  | AgentRef & {
    status: "completed" | "failed" | "interrupted";
    result: string;
    numTurns: number;
  };
