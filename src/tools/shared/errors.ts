/**
 * A tool failure the model can act on. The pipeline turns it into an is_error result carrying
 * `message` only, so messages name the problem and the way out, never a stack.
 */
export class ToolError extends Error {
  override name = "ToolError";
}

export function errnoCode(error: unknown): string | undefined {
  return (error as { code?: unknown } | undefined)?.code as string | undefined;
}
