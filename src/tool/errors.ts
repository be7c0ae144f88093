/**
 * The message of anything thrown, without a stack trace: an Error's message (or its name when it
 * has none), a string as is, anything else as JSON.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
