import { constants } from "node:os";

/** A shell-style exit status: the code, or 128 + the signal number when a signal ended the process. */
export function exitStatus(code: number | null, signal: string | number | null | undefined): number {
  if (typeof signal === "number") return 128 + signal;
  if (signal) return 128 + ((constants.signals as Record<string, number>)[signal] ?? 1);
  return code ?? 1;
}
