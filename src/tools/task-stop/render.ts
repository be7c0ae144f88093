/** How a person sees TaskStop calls: `TaskStop(bash-1a2b3c4d)`, then what happened. */
import type { ToolRenderer } from "../../tool/types.ts";
import type { TaskStopInput, TaskStopResult } from "./schema.ts";

export const taskStopRenderer: Partial<ToolRenderer<TaskStopInput, TaskStopResult>> = {
  toolUse: (input) => `TaskStop(${input.task_id ?? ""})`,
  result: (output) => taskStopText(output),
};

export function taskStopText(output: TaskStopResult): string {
  return output.was_running
    ? `Stopped task ${output.task_id} (${output.command}).`
    : `Task ${output.task_id} (${output.command}) had already finished: ${output.status}, exit code ${output.exit_code}.`;
}
