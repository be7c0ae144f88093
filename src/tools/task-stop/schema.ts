/** TaskStop's input as the model sees it, and its structured output. */
import { z } from "zod";
import type { RunStatus } from "../bash/outcome.ts";

export const taskStopInputSchema = z.strictObject({
  task_id: z.string().min(1).describe("The id of the background task or exec session to stop"),
});

export type TaskStopInput = z.infer<typeof taskStopInputSchema>;

export interface TaskStopResult {
  task_id: string;
  command: string;
  /** "stopped" when this call stopped it; otherwise how it had already ended. */
  status: RunStatus;
  exit_code: number;
  /** False when the task had already finished before the call. */
  was_running: boolean;
  output_path: string;
}
