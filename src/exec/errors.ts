/** Errors are data: every failure becomes a message the model can act on. */

/** A failure the pipeline reports to the model inside `<tool_use_error>`, as Claude Code does. */
export function toolUseError(message: string): string {
  return `<tool_use_error>${message}</tool_use_error>`;
}

/**
 * A telemetry-safe class for an error, for the audit log: errno codes and error names only, never
 * messages, paths or inputs (which may hold secrets).
 */
export function classifyToolError(error: unknown): string {
  if (error && typeof error === "object") {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z0-9]+$/.test(code)) return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === "string" && /^[A-Za-z]+$/.test(name)) return name;
  }
  return typeof error === "string" ? "StringError" : "UnknownError";
}
