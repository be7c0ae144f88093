/** Errors are data: every failure becomes a message the model can act on. */

/** A failure the pipeline reports to the model inside `<tool_use_error>`, as Claude Code does. */
export function toolUseError(message: string): string {
  return `<tool_use_error>${message}</tool_use_error>`;
}

/** The message of anything thrown, without a stack trace. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === "string" ? error : JSON.stringify(error) ?? String(error);
}
