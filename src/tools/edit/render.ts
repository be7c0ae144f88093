import { groupedLine } from "../../render/grouped.ts";
import { renderFileChange } from "../../render/file-change.ts";
import { toolLineRenderers } from "../../render/tool-line.ts";
import type { ToolRenderer } from "../../tool/types.ts";
import type { EditInput, EditOutput } from "./schema.ts";

export const editRenderer: Partial<ToolRenderer<EditInput, EditOutput>> = {
  ...toolLineRenderers<EditInput>(
    "Edit",
    (input) => `${input.file_path ?? ""}${input.replace_all ? " · all" : ""}`,
  ),
  result: (output, _input, opts) => renderFileChange(output, opts),
  grouped: (inputs, opts) =>
    groupedLine(
      "Edited",
      { one: "file", many: "files" },
      [...new Set(inputs.map((i) => i.file_path ?? ""))],
      opts,
    ),
};
