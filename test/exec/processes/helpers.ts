/** Shared by the process and process-tool tests: a throwaway tool context and process-group probes. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { taskRegistryFor } from "../../../src/exec/processes/task-registry.ts";
import type { ToolContext } from "../../../src/tool/types.ts";
import type { CommandSemantics } from "../../../src/tools/bash/analysis.ts";
import { testContext as baseContext } from "../../helpers/session-context.ts";

/** Semantics that know no command: nothing is read-only and only exit 0 succeeds. */
export const failClosedSemantics: CommandSemantics = {
  readOnlyOf: () => false,
  interpretExit: (_command, exitCode) => ({ isError: exitCode !== 0 }),
};

export interface TestContext extends ToolContext {
  /** Stops the session's tasks and removes the directories. */
  dispose(): Promise<void>;
}

export function testContext(signal: AbortSignal = new AbortController().signal): TestContext {
  const root = mkdtempSync(join(tmpdir(), "toolrt-process-"));
  const ctx: ToolContext = baseContext({ cwd: root, stateDir: join(root, ".state"), abortSignal: signal });
  return {
    ...ctx,
    dispose: async () => {
      await taskRegistryFor(ctx.session).stopAll();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Whether a pid still names a live process (a zombie waiting to be reaped counts as gone). */
export function isAlive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  try {
    const state = readFileSync(stat, "utf8").split(") ")[1]?.[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Pids written one per line by a test command. */
export function readPids(path: string): number[] {
  return readFileSync(path, "utf8").split("\n").filter(Boolean).map(Number);
}

/**
 * A shell snippet that starts two grandchildren that would sleep for minutes, writes their pids
 * and its own to `pidFile`, prints `marker`, then waits.
 */
export function familyCommand(pidFile: string, marker = "family-started"): string {
  return `sleep 300 & echo $! >> '${pidFile}'; (sleep 300; true) & echo $! >> '${pidFile}'; ` +
    `echo $$ >> '${pidFile}'; echo ${marker}; wait`;
}
