import { expect, test } from "bun:test";
import type { AnyTool } from "../../src/tool/types.ts";
import { editTool } from "../../src/tools/edit/tool.ts";
import { globTool } from "../../src/tools/glob/tool.ts";
import { grepTool } from "../../src/tools/grep/tool.ts";
import { readTool } from "../../src/tools/read/tool.ts";
import { todoWriteTool } from "../../src/tools/todo-write/tool.ts";
import { webFetchTool } from "../../src/tools/web-fetch/tool.ts";
import { writeTool } from "../../src/tools/write/tool.ts";

// Field names as Claude Code's tools take them, so rules, hooks and transcripts carry over unchanged.
const FIELDS: [AnyTool, string[], string[]][] = [
  [readTool, ["file_path", "offset", "limit", "pages"], ["file_path"]],
  [editTool, ["file_path", "old_string", "new_string", "replace_all"], [
    "file_path",
    "old_string",
    "new_string",
  ]],
  [writeTool, ["file_path", "content"], ["file_path", "content"]],
  [globTool, ["pattern", "path"], ["pattern"]],
  [
    grepTool,
    [
      "pattern",
      "path",
      "glob",
      "output_mode",
      "-B",
      "-A",
      "-C",
      "context",
      "-n",
      "-i",
      "-o",
      "type",
      "head_limit",
      "offset",
      "multiline",
    ],
    ["pattern"],
  ],
  [todoWriteTool, ["todos"], ["todos"]],
  [webFetchTool, ["url", "prompt"], ["url", "prompt"]],
];

test.each(FIELDS)(
  "%# the model-visible schema has exactly the compatible fields",
  (tool, fields, required) => {
    const schema = tool.inputJSONSchema() as { properties: Record<string, unknown>; required?: string[] };
    expect(Object.keys(schema.properties).sort()).toEqual([...fields].sort());
    expect([...(schema.required ?? [])].sort()).toEqual([...required].sort());
    expect(schema).not.toHaveProperty("$schema");
  },
);

test("every tool has a prompt and a one-line description", () => {
  for (const [tool] of FIELDS) {
    expect(tool.prompt().length, tool.name).toBeGreaterThan(100);
    expect(tool.description, tool.name).not.toContain("\n");
  }
});
