/**
 * A tool failure the model can act on. The pipeline turns it into an is_error result carrying
 * `message` only, so messages name the problem and the way out, never a stack.
 */
export class ToolError extends Error {
  override name = "ToolError";
}

/** The message of anything thrown, without a stack; errno errors keep their code. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

export function errnoCode(error: unknown): string | undefined {
  return (error as { code?: unknown } | undefined)?.code as string | undefined;
}
