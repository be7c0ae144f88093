/** The Bash tool's input as the model sees it, and its structured output. */
import { z } from "zod";

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;

export const bashInputSchema = z.strictObject({
  command: z.string().min(1, "command is empty").describe("The command to run"),
  timeout: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional()
    .describe(`Milliseconds before the command is stopped (max ${MAX_TIMEOUT_MS})`),
  description: z.string().optional()
    .describe("What the command does in 5-10 words, shown to the user (e.g. 'Run the unit tests')"),
  run_in_background: z.boolean().optional()
    .describe("Start the command and return at once with a task id; read its output later with TaskOutput"),
  dangerouslyDisableSandbox: z.boolean().optional()
    .describe(
      "Run outside the sandbox. Needs the user's permission; only when the sandbox blocks a needed command",
    ),
});

export type BashInput = z.infer<typeof bashInputSchema>;

export interface BashOutput {
  /** Standard output; when it was too long, its head and tail around an omission note. */
  stdout: string;
  stderr: string;
  /** Null while the command runs in the background. */
  exitCode: number | null;
  interrupted: boolean;
  timedOut?: boolean;
  /** Set when the command runs on as a background task. */
  backgroundTaskId?: string;
  /** Set when the command was moved to the background because it ran past the foreground budget. */
  movedToBackground?: boolean;
  /** The whole output (stdout and stderr interleaved), when the result does not hold all of it. */
  outputPath?: string;
  exitMeaning?: string;
  /** How the sandbox treated the call (a request to leave it ignored, a run without one). */
  notices?: string[];
  /** Set when the command failed because of the sandbox: which path or host, and what to ask for. */
  sandboxExplanation?: string;
  durationMs: number;
  /** Fields Claude Code hooks read; toolrt neither returns images nor predicts silent commands. */
  isImage: false;
  noOutputExpected: false;
}
