/** How a finished (or still running) command turned out, in one vocabulary for every process tool. */
import type { ProcessEnd } from "../../exec/processes/managed-process.ts";
import type { CommandSemantics } from "./analysis.ts";

export type RunStatus = "running" | "completed" | "failed" | "timed_out" | "interrupted" | "stopped";

export interface RunOutcome {
  status: RunStatus;
  exitMeaning?: string;
}

export function outcomeOf(
  command: string,
  end: ProcessEnd | undefined,
  semantics: CommandSemantics,
): RunOutcome {
  if (!end) return { status: "running" };
  switch (end.stopReason) {
    case "timeout":
      return { status: "timed_out" };
    case "interrupt":
      return { status: "interrupted" };
    case "stop":
    case "shutdown":
      return { status: "stopped" };
  }
  const exit = semantics.interpretExit(command, end.exitCode);
  return { status: exit.isError ? "failed" : "completed", exitMeaning: exit.meaning };
}

/** A stop on request is not a failure; a timeout or an interrupt is. */
export function isErrorStatus(status: RunStatus): boolean {
  return status === "failed" || status === "timed_out" || status === "interrupted";
}
