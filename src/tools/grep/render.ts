import { groupedLine } from "../../render/grouped.ts";
import { toolLineRenderers } from "../../render/tool-line.ts";
import { plural } from "../../render/units.ts";
import type { ToolRenderer } from "../../tool/types.ts";
import type { GrepInput, GrepOutput } from "./schema.ts";

/** What the model receives. */
export function grepContent(output: GrepOutput): string {
  const body = (() => {
    switch (output.mode) {
      case "files_with_matches":
        return output.numFiles === 0
          ? "No files found"
          : [`Found ${plural(output.numFiles, "file")}`, ...output.entries].join("\n");
      case "content":
        return output.totalEntries === 0 ? "No matches found" : output.entries.join("\n");
      case "count":
        return output.numFiles === 0
          ? "No matches found"
          : `${output.entries.join("\n")}\n\nFound ${plural(output.numLines, "matching line")} across ${
            plural(output.numFiles, "file")
          }.`;
    }
  })();
  return body + pageNote(output);
}

function pageNote(output: GrepOutput): string {
  const notes: string[] = [];
  const end = output.offset + output.entries.length;
  if (end < output.totalEntries || output.offset > 0) {
    const next = end < output.totalEntries ? ` Use offset=${end} for more.` : "";
    notes.push(`Showing entries ${output.offset + 1}-${end} of ${output.totalEntries}.${next}`);
  }
  if (output.capped) notes.push("The search stopped at its match limit; narrow the pattern, path or glob.");
  if (output.skipped) {
    notes.push(
      `Left out, whatever they hold: files a Read rule keeps from being shown without a person: ${
        output.skipped.join(", ")
      }. Read one to ask for it.`,
    );
  }
  return notes.length ? `\n\n(${notes.join(" ")})` : "";
}

export const grepRenderer: Partial<ToolRenderer<GrepInput, GrepOutput>> = {
  ...toolLineRenderers<GrepInput>("Grep", (input) => {
    const where = [
      input.path && `in ${input.path}`,
      input.glob && `glob ${input.glob}`,
      input.type && `type ${input.type}`,
    ];
    return [JSON.stringify(input.pattern ?? ""), ...where.filter(Boolean)].join(" ");
  }),
  result: (output, _input, opts) => {
    const summary = output.mode === "content"
      ? `Found ${plural(output.numLines, "matching line")} in ${plural(output.numFiles, "file")}`
      : `Found ${plural(output.numFiles, "file")}`;
    return opts.verbose && output.entries.length > 0 ? `${summary}\n${output.entries.join("\n")}` : summary;
  },
  grouped: (inputs, opts) =>
    groupedLine(
      "Searched",
      { one: "pattern", many: "patterns" },
      inputs.map((i) => JSON.stringify(i.pattern ?? "")),
      opts,
    ),
};
