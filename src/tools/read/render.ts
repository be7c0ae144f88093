import { groupedLine } from "../../render/grouped.ts";
import { toolLineRenderers } from "../../render/tool-line.ts";
import { formatBytes, plural } from "../../render/units.ts";
import type { ToolRenderer } from "../../tool/types.ts";
import type { ReadInput, ReadOutput } from "./schema.ts";

/** What the model receives. */
export function readContent(output: ReadOutput): string {
  switch (output.kind) {
    case "text":
      return output.content + textNotes(output);
    case "empty":
      return `${output.filePath} exists but is empty.`;
    case "image":
      return `${output.filePath} is an image: ${describeMedia(output)}. Its pixels are not shown.`;
    case "pdf": {
      const range = output.requestedPages ? `-f ${output.requestedPages.split(/[,-]/)[0]} ` : "";
      return `${output.filePath} is a PDF: ${describeMedia(output)}. Its text is not extracted here; ` +
        `use Bash: pdftotext ${range}'${output.filePath}' -`;
    }
  }
}

function textNotes(output: Extract<ReadOutput, { kind: "text" }>): string {
  const notes: string[] = [];
  const lastShown = output.startLine + output.numLines - 1;
  if (lastShown < output.totalLines) {
    notes.push(
      `Showing lines ${output.startLine}-${lastShown} of ${output.totalLines}` +
        `${output.cutAtChars ? " (result size limit reached)" : ""}. ` +
        `Use offset=${lastShown + 1} to read on.`,
    );
  }
  if (output.shortenedLines > 0) {
    notes.push(`${plural(output.shortenedLines, "line")} longer than 2000 characters cut.`);
  }
  return notes.length ? `\n\n(${notes.join(" ")})` : "";
}

function describeMedia(output: Extract<ReadOutput, { kind: "image" | "pdf" }>): string {
  const parts = output.kind === "image"
    ? [
      output.format.toUpperCase(),
      output.width ? `${output.width}×${output.height} pixels` : "dimensions unknown",
    ]
    : [
      output.version ? `version ${output.version}` : "",
      output.pages ? plural(output.pages, "page") : "page count unknown",
    ];
  return [...parts.filter(Boolean), formatBytes(output.bytes)].join(", ");
}

function lineRange(input: Partial<ReadInput>): string {
  if (input.offset === undefined && input.limit === undefined) return "";
  const start = Math.max(input.offset ?? 1, 1);
  return input.limit === undefined ? ` · from line ${start}` : ` · lines ${start}-${start + input.limit - 1}`;
}

export const readRenderer: Partial<ToolRenderer<ReadInput, ReadOutput>> = {
  ...toolLineRenderers<ReadInput>("Read", (input) => `${input.file_path ?? ""}${lineRange(input)}`),
  result: (output, _input, opts) => {
    if (output.kind !== "text") return readContent(output);
    const summary = `Read ${plural(output.numLines, "line")}`;
    return opts.verbose ? `${summary}\n${output.content}` : summary;
  },
  grouped: (inputs, opts) =>
    groupedLine("Read", { one: "file", many: "files" }, inputs.map((i) => i.file_path ?? ""), opts),
};
