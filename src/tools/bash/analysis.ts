/**
 * What the Bash analyzer (src/bash/) tells the process tools. Until it is wired in, both answers
 * fail closed: no command counts as read-only, and every non-zero exit is a failure.
 */

export interface ExitInterpretation {
  isError: boolean;
  /** What the code means for this command (`grep` 1: "no matches"), when that is not plain failure. */
  meaning?: string;
}

export interface CommandSemantics {
  /**
   * Whether the command only reads: it then needs no prompt and may run beside other reads.
   * Synchronous because the pipeline asks after its analysis stage has already run.
   */
  readOnlyOf(command: string): boolean;
  interpretExit(command: string, exitCode: number): ExitInterpretation;
}

export const failClosedSemantics: CommandSemantics = {
  readOnlyOf: () => false,
  interpretExit: (_command, exitCode) => ({ isError: exitCode !== 0 }),
};

/** The semantics the built-in process tools use unless given others. Wire the analyzer here. */
export const defaultSemantics: CommandSemantics = failClosedSemantics;
