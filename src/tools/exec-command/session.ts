/**
 * What ExecCommand and WriteStdin share: the output budget fields, and collecting a session's new
 * output for a while. A call returns when the program exits or the yield time is up, whichever is
 * first, so a turn never waits on a program that waits for input.
 */
import { z } from "zod";
import type { ProcessTask } from "../../exec/processes/task-registry.ts";
import { waitAtMost } from "../../exec/processes/wait.ts";
import type { CommandSemantics } from "../bash/analysis.ts";
import { statusSentence, type TaskView, viewTask } from "../task-output/view.ts";

const MAX_YIELD_MS = 30_000;
export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;
/** Keeps a result under the pipeline's 50,000-character ceiling. */
const MAX_OUTPUT_TOKENS = 12_000;
/** The usual estimate: one token is about four characters (counted here in bytes). */
const BYTES_PER_TOKEN = 4;

export function yieldTimeField(defaultMs: number) {
  return z.number().int().min(0).max(MAX_YIELD_MS).optional()
    .describe(
      `How long to collect output before returning, in milliseconds (default ${defaultMs}); returns early when the program exits`,
    );
}

export const maxOutputTokensField = z.number().int().min(1).max(MAX_OUTPUT_TOKENS).optional()
  .describe(
    `Most output to return, in tokens of about 4 characters (default ${DEFAULT_MAX_OUTPUT_TOKENS}); the rest stays in the session's file`,
  );

export interface ExecSessionResult extends TaskView {
  session_id: string;
  wall_time_ms: number;
  /** Something the model should know about this call (e.g. input that was not sent). */
  note?: string;
}

export async function collectSessionOutput(
  task: ProcessTask,
  options: { yieldTimeMs: number; maxOutputTokens: number; signal: AbortSignal; semantics: CommandSemantics },
): Promise<ExecSessionResult> {
  const started = Date.now();
  if (task.process.running) await waitAtMost(task.process.ended, options.yieldTimeMs, options.signal);
  const view = viewTask(task, options.semantics, {
    all: false,
    maxBytes: options.maxOutputTokens * BYTES_PER_TOKEN,
  });
  return { session_id: task.id, ...view, wall_time_ms: Date.now() - started };
}

export function sessionText(result: ExecSessionResult): string {
  const lines = [result.output.trimEnd() || "(no new output)"];
  if (result.note) lines.push(result.note);
  else lines.push(...result.notices ?? []); // WriteStdin's polls: no note, the end's notices as they are
  const id = result.session_id;
  lines.push(
    result.status === "running"
      ? `Session ${id} is still running. Send input or poll with WriteStdin (session_id "${id}"); stop it with TaskStop.`
      : `Session ${id}: ${statusSentence(result)}`,
  );
  return lines.join("\n");
}
