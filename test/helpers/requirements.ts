/**
 * What a test file needs from the machine (toolrt's sandbox, a program on the PATH): whether it is
 * there and, when not, one line on stderr naming what is skipped and why, so that a run on a machine
 * without bubblewrap or ripgrep lists its skips.
 */
import { detectSandbox } from "../../src/sandbox/detect.ts";

/** Whether toolrt's sandbox (of `kind`, when given) runs here; says what is skipped when not. */
export function sandboxFor(what: string, kind?: "bwrap" | "sandbox-exec"): boolean {
  const availability = detectSandbox();
  const reason = !availability.available
    ? availability.reason
    : kind && availability.kind !== kind
    ? `needs ${kind}; this machine's sandbox is ${availability.kind}`
    : null;
  if (reason) console.warn(`skipping ${what}: ${reason}`);
  return reason === null;
}

/** Whether `program` is on the PATH; says what is skipped when not. */
export function programFor(program: string, what: string): boolean {
  if (Bun.which(program)) return true;
  console.warn(`skipping ${what}: ${program} is not on the PATH`);
  return false;
}
