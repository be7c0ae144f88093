/** WriteStdin's input as the model sees it. Its output is an `ExecSessionResult`. */
import { z } from "zod";
import { maxOutputTokensField, yieldTimeField } from "../exec-command/session.ts";

export const DEFAULT_WRITE_YIELD_MS = 250;

export const writeStdinInputSchema = z.strictObject({
  session_id: z.string().min(1).describe("The exec session to write to, from ExecCommand"),
  chars: z.string().optional()
    .describe(
      "Text to send to the program's input; include \\n to press Enter. Empty or absent: only poll for output",
    ),
  yield_time_ms: yieldTimeField(DEFAULT_WRITE_YIELD_MS),
  max_output_tokens: maxOutputTokensField,
});

export type WriteStdinInput = z.infer<typeof writeStdinInputSchema>;
