/** TaskOutput's input as the model sees it, and its structured output. */
import { z } from "zod";
import type { TaskKind } from "../../exec/processes/task-registry.ts";
import type { TaskView } from "./view.ts";

export const DEFAULT_WAIT_MS = 30_000;
const MAX_WAIT_MS = 600_000;

export const taskOutputInputSchema = z.strictObject({
  task_id: z.string().min(1).describe(
    "The id of a background task (from Bash) or an exec session (from ExecCommand)",
  ),
  block: z.boolean().optional()
    .describe("Wait for the task to finish, up to `timeout`, before answering (default true)"),
  timeout: z.number().int().min(0).max(MAX_WAIT_MS).optional()
    .describe(`Longest wait in milliseconds when blocking (default ${DEFAULT_WAIT_MS})`),
  all: z.boolean().optional()
    .describe("Return the output from the start instead of only what is new since the last read"),
});

export type TaskOutputInput = z.infer<typeof taskOutputInputSchema>;

export interface TaskOutputResult extends TaskView {
  task_id: string;
  kind: TaskKind;
  command: string;
  description?: string;
  /** "success": the task has finished; "timeout": still running after the wait; "not_ready": not waited for. */
  retrieval_status: "success" | "timeout" | "not_ready";
}
