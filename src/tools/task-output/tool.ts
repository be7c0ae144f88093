/** TaskOutput: reads what a background task or exec session has printed, optionally waiting for it to finish. */
import { taskRegistryFor } from "../../exec/processes/task-registry.ts";
import { waitAtMost } from "../../exec/processes/wait.ts";
import { buildTool } from "../../tool/build-tool.ts";
import type { Tool } from "../../tool/types.ts";
import { type ProcessToolOptions, resolveProcessOptions } from "../bash/options.ts";
import promptText from "./prompt.md" with { type: "text" };
import { taskOutputRenderer } from "./render.ts";
import {
  DEFAULT_WAIT_MS,
  type TaskOutputInput,
  taskOutputInputSchema,
  type TaskOutputResult,
} from "./schema.ts";
import { statusSentence, viewTask } from "./view.ts";

/** Bytes of output one read returns; the rest stays in the task's file. */
const MAX_READ_BYTES = 30_000;

function createTaskOutputTool(
  options: ProcessToolOptions = {},
): Tool<TaskOutputInput, TaskOutputResult> {
  const { semantics } = resolveProcessOptions(options);
  return buildTool<TaskOutputInput, TaskOutputResult>({
    name: "TaskOutput",
    category: "read",
    // Needed only once a background task or exec session exists: found through ToolSearch.
    shouldDefer: true,
    searchHint: "background task output log poll shell",
    description:
      "Reads the output of a background task or exec session, optionally waiting for it to finish.",
    prompt: () => promptText,
    inputSchema: taskOutputInputSchema,
    call: async (input, ctx) => {
      const task = taskRegistryFor(ctx.session).require(input.task_id);
      const block = input.block ?? true;
      if (block && task.process.running) {
        await waitAtMost(task.process.ended, input.timeout ?? DEFAULT_WAIT_MS, ctx.abortSignal);
      }
      const view = viewTask(task, semantics, { all: input.all ?? false, maxBytes: MAX_READ_BYTES });
      const retrieval_status = view.status !== "running" ? "success" : block ? "timeout" : "not_ready";
      return {
        data: {
          task_id: task.id,
          kind: task.kind,
          command: task.process.command,
          ...(task.description ? { description: task.description } : {}),
          ...view,
          retrieval_status,
        },
      };
    },
    toContent: (output) => [{ type: "text", text: taskOutputText(output) }],
    persistedPathOf: (output) => (output.omitted_bytes > 0 ? output.output_path : undefined),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    interruptBehavior: () => "cancel",
    render: taskOutputRenderer,
  });
}

function taskOutputText(output: TaskOutputResult): string {
  const header = `Task ${output.task_id} (${output.command}): ${statusSentence(output)}`;
  const body = output.output.trimEnd() || "(no new output)";
  return [header, body, `Whole output: ${output.output_path}`, ...output.notices ?? []].join("\n");
}

export const taskOutputTool = createTaskOutputTool();
