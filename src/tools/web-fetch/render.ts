import { groupedLine } from "../../render/grouped.ts";
import { toolLineRenderers } from "../../render/tool-line.ts";
import { formatBytes } from "../../render/units.ts";
import type { ToolRenderer } from "../../tool/types.ts";
import type { WebFetchInput, WebFetchOutput } from "./schema.ts";

/** What the model receives: where the text came from, the question, then the text. */
export function webFetchContent(output: WebFetchOutput): string {
  if (output.kind === "redirect") {
    return `${output.url} redirects (${output.status}) to another host: ${output.location}\n` +
      `To read it, call WebFetch again with url "${output.location}" and the same prompt.`;
  }
  const source = `${output.finalUrl} (${output.status}, ${output.contentType || "no content type"}, ` +
    `${formatBytes(output.bytes)}${output.cut ? ", cut at the size limit" : ""})`;
  const title = output.title ? `Title: ${output.title}\n` : "";
  return `Fetched ${source}\n${title}Question: ${output.prompt}\n\n${output.text}`;
}

export const webFetchRenderer: Partial<ToolRenderer<WebFetchInput, WebFetchOutput>> = {
  ...toolLineRenderers<WebFetchInput>("WebFetch", (input) => input.url ?? ""),
  result: (output, _input, opts) => {
    if (output.kind === "redirect") return `Redirected to ${output.location} (not followed)`;
    const summary = `Received ${formatBytes(output.bytes)} (${output.status} ${output.contentType})`;
    return opts.verbose ? `${summary}\n${output.text}` : summary;
  },
  grouped: (inputs, opts) =>
    groupedLine("Fetched", { one: "URL", many: "URLs" }, inputs.map((i) => i.url ?? ""), opts),
};
