import type { RenderOptions, ToolRenderer } from "../../tool/types.ts";
import type { AgentInput, AgentOutput } from "./schema.ts";

const title = (input: Partial<AgentInput>) =>
  `Agent(${input.subagent_type ?? "general-purpose"}: ${input.description ?? ""})`;

export const agentRenderer: ToolRenderer<AgentInput, AgentOutput> = {
  toolUse: (input) => `${title(input)}${input.run_in_background === false ? "" : " · background"}`,
  result: (output: AgentOutput, _input, opts: RenderOptions) => {
    if (output.status === "async_launched") return `started ${output.agentId} in the background`;
    const head = `${output.status} after ${output.numTurns} turn${output.numTurns === 1 ? "" : "s"}`;
    return opts.verbose ? `${head}\n${output.result}` : `${head}: ${output.result.split("\n")[0] ?? ""}`;
  },
  rejected: (input, reason) => `${title(input)} rejected: ${reason}`,
  error: (message, input) => `${title(input)} failed: ${message}`,
  grouped: (inputs) =>
    `Started ${inputs.length} agents: ${inputs.map((i) => i.description ?? "").join(", ")}`,
};
