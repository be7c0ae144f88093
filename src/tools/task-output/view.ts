/** A task as the model reads it: how it stands, and its output not yet read (or all of it). */
import { joinExcerpt } from "../../exec/processes/excerpt.ts";
import { omittedNote } from "../../exec/processes/format.ts";
import { type ProcessTask, readTaskOutput } from "../../exec/processes/task-registry.ts";
import type { CommandSemantics } from "../bash/analysis.ts";
import { outcomeOf, type RunStatus } from "../bash/outcome.ts";

export interface TaskView {
  status: RunStatus;
  exit_code?: number;
  exit_meaning?: string;
  /** New output since the last read (or all), cut to its start and end when long. */
  output: string;
  omitted_bytes: number;
  /** The whole output, always on disk. */
  output_path: string;
  /** What the launch said once the task ended (files that run later it changed). */
  notices?: string[];
}

export function viewTask(
  task: ProcessTask,
  semantics: CommandSemantics,
  read: { all: boolean; maxBytes: number },
): TaskView {
  const output = readTaskOutput(task, read);
  const end = task.process.end;
  const outcome = outcomeOf(task.process.command, end, semantics);
  return {
    status: outcome.status,
    ...(end ? { exit_code: end.exitCode } : {}),
    ...(outcome.exitMeaning ? { exit_meaning: outcome.exitMeaning } : {}),
    output: joinExcerpt(output, (bytes) => omittedNote(bytes, task.process.log.path)),
    omitted_bytes: output.omittedBytes,
    output_path: task.process.log.path,
    ...(task.notices?.length ? { notices: task.notices } : {}),
  };
}

/** One sentence on where the task stands. */
export function statusSentence(view: TaskView): string {
  const meaning = view.exit_meaning ? ` (${view.exit_meaning})` : "";
  switch (view.status) {
    case "running":
      return "Still running.";
    case "completed":
    case "failed":
      return `Exited with code ${view.exit_code}${meaning}.`;
    case "timed_out":
      return "Stopped at its timeout, with every process it started.";
    case "interrupted":
      return "Stopped by an interrupt, with every process it started.";
    case "stopped":
      return "Stopped on request, with every process it started.";
  }
}
