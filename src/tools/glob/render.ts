import { groupedLine } from "../../render/grouped.ts";
import { toolLineRenderers } from "../../render/tool-line.ts";
import { plural } from "../../render/units.ts";
import type { ToolRenderer } from "../../tool/types.ts";
import type { GlobInput, GlobOutput } from "./schema.ts";

export function globContent(output: GlobOutput): string {
  if (output.numFiles === 0) return "No files found";
  const note = output.truncated
    ? `\n(Results are truncated: showing ${output.filenames.length} of ${output.numFiles} files, newest first. ` +
      "Use a more specific pattern or path.)"
    : "";
  return output.filenames.join("\n") + note;
}

export const globRenderer: Partial<ToolRenderer<GlobInput, GlobOutput>> = {
  ...toolLineRenderers<GlobInput>(
    "Glob",
    (input) => `${input.pattern ?? ""}${input.path ? ` in ${input.path}` : ""}`,
  ),
  result: (output, _input, opts) => {
    const summary = `Found ${plural(output.numFiles, "file")}${output.truncated ? " (truncated)" : ""}`;
    return opts.verbose && output.numFiles > 0 ? `${summary}\n${output.filenames.join("\n")}` : summary;
  },
  grouped: (inputs, opts) =>
    groupedLine("Searched", { one: "pattern", many: "patterns" }, inputs.map((i) => i.pattern ?? ""), opts),
};
