/** How a person sees exec sessions: `ExecCommand(python3 -i)`, then the output and the session state. */
import type { RenderOptions, ToolRenderer } from "../../tool/types.ts";
import { previewLines } from "../bash/render.ts";
import { statusSentence } from "../task-output/view.ts";
import type { ExecCommandInput } from "./schema.ts";
import type { ExecSessionResult } from "./session.ts";

export function renderSessionResult(output: ExecSessionResult, opts: RenderOptions): string {
  const state = output.status === "running" ? "running" : statusSentence(output);
  return [...previewLines(output.output, opts), `[${output.session_id}] ${state}`].join("\n");
}

export const execCommandRenderer: Partial<ToolRenderer<ExecCommandInput, ExecSessionResult>> = {
  toolUse: (input) => `ExecCommand(${input.cmd ?? ""}${input.tty ? ", tty" : ""})`,
  result: (output, _input, opts) => renderSessionResult(output, opts),
};
