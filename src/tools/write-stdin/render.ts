/** How a person sees WriteStdin calls: `WriteStdin(exec-1a2b3c4d, "yes\n")`, then the session's output. */
import type { ToolRenderer } from "../../tool/types.ts";
import { renderSessionResult } from "../exec-command/render.ts";
import type { ExecSessionResult } from "../exec-command/session.ts";
import type { WriteStdinInput } from "./schema.ts";

export const writeStdinRenderer: Partial<ToolRenderer<WriteStdinInput, ExecSessionResult>> = {
  toolUse: (input) => {
    const sent = input.chars ? `, ${JSON.stringify(input.chars)}` : ", poll";
    return `WriteStdin(${input.session_id ?? ""}${sent})`;
  },
  result: (output, _input, opts) => renderSessionResult(output, opts),
};
