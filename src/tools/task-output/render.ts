/** How a person sees TaskOutput calls: `TaskOutput(bash-1a2b3c4d)`, then the status and the new output. */
import type { ToolRenderer } from "../../tool/types.ts";
import { previewLines } from "../bash/render.ts";
import type { TaskOutputInput, TaskOutputResult } from "./schema.ts";
import { statusSentence } from "./view.ts";

export const taskOutputRenderer: Partial<ToolRenderer<TaskOutputInput, TaskOutputResult>> = {
  toolUse: (input) => `TaskOutput(${input.task_id ?? ""}${input.block === false ? ", no wait" : ""})`,
  result: (output, _input, opts) =>
    [`${output.task_id}: ${statusSentence(output)}`, ...previewLines(output.output, opts)].join("\n"),
};
