import { RuleSyntaxError } from "../policy/rule-string.ts";

/** Errors the CLI turns into exit codes: usage and configuration problems exit 2, the rest 1. */

export class UsageError extends Error {
  override name = "UsageError";
}

/** A broken config or policy file: names the file and position and what is wrong. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

function exitCodeFor(error: unknown): number {
  const isUsage = error instanceof UsageError || error instanceof ConfigError ||
    error instanceof RuleSyntaxError;
  return isUsage ? 2 : 1;
}

/** Prints `toolrt: <message>` (the stack with --debug) and returns the exit code for `error`. */
export function reportFailure(error: unknown, argv: readonly string[]): number {
  const debug = argv.includes("--debug");
  const message = error instanceof Error ? (debug ? error.stack : error.message) : String(error);
  process.stderr.write(`toolrt: ${message}\n`);
  return exitCodeFor(error);
}
