/** The one-line renderings every tool shares: its use, a rejection and an error. */
import type { RenderOptions, ToolRenderer } from "../tool/types.ts";
import { fit, paint } from "./colour.ts";

export function toolLineRenderers<Input>(
  name: string,
  summarize: (input: Partial<Input>) => string,
): Pick<ToolRenderer<Input, unknown>, "toolUse" | "rejected" | "error"> {
  const line = (input: Partial<Input>, opts: RenderOptions) =>
    `${paint(name, "bold", opts)}(${fit(summarize(input), Math.max(opts.columns - name.length - 2, 20))})`;
  return {
    toolUse: line,
    rejected: (input, reason, opts) => `${line(input, opts)} ${paint(`rejected: ${reason}`, "yellow", opts)}`,
    error: (message, input, opts) => `${line(input, opts)} ${paint(`failed: ${message}`, "red", opts)}`,
  };
}
