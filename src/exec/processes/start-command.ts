/** Starting a shell command for a tool call: the launch, the one wrapper seam, the log in the state dir. */
import { bashLaunch, type LaunchWrapper, type WrappedLaunch } from "./launch.ts";
import { type InputMode, ManagedProcess, type OutputListener } from "./managed-process.ts";
import { newTaskId, type TaskKind, taskLogPath } from "./task-registry.ts";

export interface CommandStart {
  command: string;
  cwd: string;
  stateDir: string;
  kind: TaskKind;
  input: InputMode;
  /** The caller asked to run outside the sandbox (and policy let it). */
  unsandboxed: boolean;
  /** Paths a person allowed writing for this run only (a retry after the sandbox blocked them). */
  grantedWrites?: string[];
  wrapLaunch: LaunchWrapper;
  capture: { headBytes: number; tailBytes: number };
  killGraceMs?: number;
  onOutput?: OutputListener;
}

/**
 * Spawns `bash -c command` through the wrapper; the id names the task and its log file. The
 * wrapped launch comes back too: its notices and failure explanation belong in the tool's result.
 */
export async function startCommand(
  start: CommandStart,
): Promise<{ id: string; process: ManagedProcess; launch: WrappedLaunch }> {
  const id = newTaskId(start.kind);
  const mode = start.input === "tty" ? "tty" : "pipes";
  const launch = await start.wrapLaunch(bashLaunch(start.command, start.cwd, mode), {
    command: start.command,
    unsandboxed: start.unsandboxed,
    ...(start.grantedWrites?.length ? { grantedWrites: start.grantedWrites } : {}),
  });
  const child = ManagedProcess.start(start.command, {
    launch,
    logPath: taskLogPath(start.stateDir, id),
    input: start.input,
    capture: start.capture,
    killGraceMs: start.killGraceMs,
    onOutput: start.onOutput,
  });
  return { id, process: child, launch };
}
