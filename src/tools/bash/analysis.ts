/**
 * What the Bash analyzer (src/bash/) tells the process tools: which commands only read, and what an
 * exit code means. Analysis is synchronous once the parser is loaded; before that, anything that is
 * not plain words counts as not read-only (fail closed).
 */
import { analyzeBashSync } from "../../bash/analyze.ts";
import { interpretExitCode } from "../../bash/semantics.ts";

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

/** The semantics the built-in process tools use unless given others: the analyzer's. */
export const defaultSemantics: CommandSemantics = {
  readOnlyOf: (command) => analyzeBashSync(command).readOnly,
  interpretExit: (command, exitCode) => interpretExitCode(analyzeBashSync(command), exitCode),
};
