import type { InvokedBy, PermissionMode, ToolContext } from "./types.ts";

export interface ToolContextFields {
  cwd: string;
  stateDir: string;
  mode: PermissionMode;
  invokedBy: InvokedBy;
  additionalDirs?: string[];
  abortSignal?: AbortSignal;
  agent?: ToolContext["agent"];
  /** The state carried over from earlier calls (a named session's); empty when absent. */
  session?: ToolContext["session"];
}

/**
 * A context for the first call of a session: empty session state unless one is given, the top-level agent unless told,
 * and a signal that never fires unless one is given.
 */
export function createToolContext(fields: ToolContextFields): ToolContext {
  return {
    cwd: fields.cwd,
    additionalDirs: fields.additionalDirs ?? [],
    stateDir: fields.stateDir,
    mode: fields.mode,
    invokedBy: fields.invokedBy,
    abortSignal: fields.abortSignal ?? new AbortController().signal,
    session: fields.session ?? { readFiles: new Map(), todos: [] },
    agent: fields.agent ?? { depth: 0 },
  };
}
