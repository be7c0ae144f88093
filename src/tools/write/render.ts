import { groupedLine } from "../../render/grouped.ts";
import { renderFileChange } from "../../render/file-change.ts";
import { toolLineRenderers } from "../../render/tool-line.ts";
import type { ToolRenderer } from "../../tool/types.ts";
import type { WriteInput, WriteOutput } from "./schema.ts";

export const writeRenderer: Partial<ToolRenderer<WriteInput, WriteOutput>> = {
  ...toolLineRenderers<WriteInput>("Write", (input) => input.file_path ?? ""),
  result: (output, _input, opts) => renderFileChange(output, opts),
  grouped: (inputs, opts) =>
    groupedLine("Wrote", { one: "file", many: "files" }, inputs.map((i) => i.file_path ?? ""), opts),
};
