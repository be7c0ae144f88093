/** TaskStop: stops a background task or exec session, with every process it started. */
import { taskRegistryFor } from "../../exec/processes/task-registry.ts";
import { buildTool } from "../../tool/build-tool.ts";
import type { Tool } from "../../tool/types.ts";
import { type ProcessToolOptions, resolveProcessOptions } from "../bash/options.ts";
import { outcomeOf } from "../bash/outcome.ts";
import promptText from "./prompt.md" with { type: "text" };
import { taskStopRenderer, taskStopText } from "./render.ts";
import { type TaskStopInput, taskStopInputSchema, type TaskStopResult } from "./schema.ts";

export function createTaskStopTool(options: ProcessToolOptions = {}): Tool<TaskStopInput, TaskStopResult> {
  const { semantics } = resolveProcessOptions(options);
  return buildTool<TaskStopInput, TaskStopResult>({
    name: "TaskStop",
    category: "execute",
    // Needed only once a background task or exec session exists: found through ToolSearch.
    shouldDefer: true,
    searchHint: "kill stop background task shell process",
    description: "Stops a background task or exec session and every process it started.",
    prompt: () => promptText,
    inputSchema: taskStopInputSchema,
    call: async (input, ctx) => {
      const task = taskRegistryFor(ctx.session).require(input.task_id);
      const wasRunning = task.process.running;
      const end = await task.process.stop("stop");
      return {
        data: {
          task_id: task.id,
          command: task.process.command,
          status: outcomeOf(task.process.command, end, semantics).status,
          exit_code: end.exitCode,
          was_running: wasRunning,
          output_path: task.process.log.path,
        },
      };
    },
    toContent: (output) => [{ type: "text", text: taskStopText(output) }],
    render: taskStopRenderer,
  });
}

export const taskStopTool = createTaskStopTool();
