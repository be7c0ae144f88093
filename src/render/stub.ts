/**
 * The renderer of a tool this runtime does not have (a remote agent's own tools, an MCP server
 * that is not configured here): its name and input as they are, so nothing disappears.
 */
import type { RenderOptions, ToolRenderer } from "../tool/types.ts";
import { clip, paint } from "./colour.ts";

function line(name: string, input: unknown, opts: RenderOptions): string {
  const json = JSON.stringify(input ?? {});
  return clip(`${paint(name, "bold", opts)} ${json === "{}" ? "" : json}`.trimEnd(), opts.columns);
}

export function stubRenderer(name: string): ToolRenderer<unknown, unknown> {
  return {
    toolUse: (input, opts) => line(name, input, opts),
    result: (output) => (typeof output === "string" ? output : JSON.stringify(output, null, 2)),
    rejected: (input, reason, opts) =>
      `${line(name, input, opts)} ${paint(`rejected: ${reason}`, "yellow", opts)}`,
    error: (message, input, opts) => `${line(name, input, opts)} ${paint(`failed: ${message}`, "red", opts)}`,
  };
}
