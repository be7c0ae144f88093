/** ExecCommand's input as the model sees it. Its output is an `ExecSessionResult`. */
import { z } from "zod";
import { maxOutputTokensField, yieldTimeField } from "./session.ts";

export const DEFAULT_EXEC_YIELD_MS = 10_000;

export const execCommandInputSchema = z.strictObject({
  cmd: z.string().min(1, "cmd is empty").describe("The command to start, run with bash -c"),
  workdir: z.string().optional().describe(
    "Directory to run in, relative to the workspace (default: the workspace)",
  ),
  tty: z.boolean().optional()
    .describe("Run under a pseudo-terminal, for programs that insist on one (default false: plain pipes)"),
  yield_time_ms: yieldTimeField(DEFAULT_EXEC_YIELD_MS),
  max_output_tokens: maxOutputTokensField,
});

export type ExecCommandInput = z.infer<typeof execCommandInputSchema>;
