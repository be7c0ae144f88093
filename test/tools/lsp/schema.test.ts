import { expect, test } from "bun:test";
import { LspManager } from "../../../src/lsp/manager.ts";
import { createLspTool } from "../../../src/tools/lsp/tool.ts";
import { createSkillTool, SkillCatalog } from "../../../src/tools/skill/tool.ts";

// The model-visible fields, as Claude Code's LSP and Skill tools take them.
test.each([
  [createLspTool(new LspManager({ rootDir: "/" }), { kind: "plugin", server: "p" }), [
    "character",
    "filePath",
    "line",
    "operation",
    "query",
  ], ["character", "filePath", "line", "operation"]],
  [createSkillTool(new SkillCatalog()), ["args", "skill"], ["skill"]],
])("%# the schema has exactly the compatible fields", (tool, fields, required) => {
  const schema = tool.inputJSONSchema() as { properties: Record<string, unknown>; required?: string[] };
  expect(Object.keys(schema.properties).sort()).toEqual(fields);
  expect([...(schema.required ?? [])].sort()).toEqual(required);
  expect(tool.description).not.toContain("\n");
  expect(tool.prompt().length).toBeGreaterThan(100);
});
