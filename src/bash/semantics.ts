/**
 * Exit-code semantics: some commands use exit status 1 for an ordinary answer, not a failure
 * (`grep` found nothing, `diff` found differences). The pipeline reports those as results.
 */
import type { BashAnalysis } from "./types.ts";

export interface ExitMeaning {
  /** The exit status means the command failed. */
  isError: boolean;
  /** What a non-zero status that is not an error means, for the model. */
  meaning?: string;
}

const NOT_ERRORS: Record<string, Record<number, string>> = {
  grep: { 1: "no matches" },
  egrep: { 1: "no matches" },
  fgrep: { 1: "no matches" },
  rg: { 1: "no matches" },
  ag: { 1: "no matches" },
  ack: { 1: "no matches" },
  diff: { 1: "the files differ" },
  cmp: { 1: "the files differ" },
  test: { 1: "the condition is false" },
  "[": { 1: "the condition is false" },
  find: { 1: "some paths could not be read; results are partial" },
};

/**
 * Interprets `code` for the command that decides the exit status: the last top-level command
 * (in a pipeline, its last stage).
 */
export function interpretExitCode(analysis: BashAnalysis, code: number): ExitMeaning {
  if (code === 0) return { isError: false };
  const last = analysis.commands.findLast((c) => c.via === undefined || !c.via.endsWith("...)"));
  const name = last?.ruleText.split(" ")[0] ?? "";
  const meaning = NOT_ERRORS[name.slice(name.lastIndexOf("/") + 1)]?.[code];
  return meaning === undefined ? { isError: true } : { isError: false, meaning };
}
