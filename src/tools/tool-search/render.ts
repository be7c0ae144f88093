/** How a ToolSearch call and its result read in the terminal. */
import type { ToolRenderer } from "../../tool/types.ts";
import type { ToolSearchInput, ToolSearchOutput } from "./schema.ts";

export const toolSearchRenderer: Partial<ToolRenderer<ToolSearchInput, ToolSearchOutput>> = {
  toolUse: (input) => `ToolSearch(${JSON.stringify(input.query ?? "")})`,
  result: (output) => {
    const lines = [
      output.matches.length === 0
        ? "No matching deferred tools"
        : `Loaded ${output.matches.length} tool${output.matches.length === 1 ? "" : "s"}: ${
          output.matches.join(", ")
        }`,
    ];
    if (output.missing.length > 0) lines.push(`Not found: ${output.missing.join(", ")}`);
    if (output.unmatchedRequired.length > 0) {
      lines.push(`No tool name contains: ${output.unmatchedRequired.join(", ")}`);
    }
    return lines.join("\n");
  },
};
