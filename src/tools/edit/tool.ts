import { buildTool } from "../../tool/build-tool.ts";
import { plural } from "../../render/units.ts";
import { ToolError } from "../shared/errors.ts";
import { assertChangeable, commitChange, describeChange, validateChange } from "../shared/file-change.ts";
import { resolveToolPath } from "../shared/paths.ts";
import { checkWorkspaceAccess } from "../shared/permissions.ts";
import { readTextFile, withLineEnding } from "../shared/text-file.ts";
import { applyEdit } from "./apply.ts";
import prompt from "./prompt.md" with { type: "text" };
import { editRenderer } from "./render.ts";
import { type EditInput, editInputSchema, type EditOutput } from "./schema.ts";

export const editTool = buildTool<EditInput, EditOutput>({
  name: "Edit",
  category: "edit",
  searchHint: "modify change replace text in file",
  description: "Replaces exact text in a file read in this session.",
  prompt: () => prompt,
  inputSchema: editInputSchema,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  // A targeted replacement shown as a diff; Write's whole-file overwrite is the destructive one.
  isDestructive: () => false,
  interruptBehavior: () => "block",
  getPath: (input, ctx) => resolveToolPath(input.file_path, ctx.cwd),
  checkPermissions: async (input, ctx) =>
    checkWorkspaceAccess(resolveToolPath(input.file_path, ctx.cwd), ctx, "write"),
  async validateInput(input, ctx) {
    if (input.old_string === input.new_string) {
      return { ok: false, message: "old_string and new_string are the same: there is nothing to change." };
    }
    return validateChange(ctx, resolveToolPath(input.file_path, ctx.cwd));
  },
  async call(input, ctx) {
    const path = resolveToolPath(input.file_path, ctx.cwd);
    const existing = await assertChangeable(ctx, path);
    const oldString = input.old_string.replaceAll("\r\n", "\n");
    const newString = input.new_string.replaceAll("\r\n", "\n");
    if (!existing) {
      if (oldString !== "") {
        throw new ToolError(`${path} does not exist. Use an empty old_string to create it.`);
      }
      const change = await commitChange(ctx, path, {
        before: undefined,
        after: newString,
        bytes: input.new_string,
      });
      return { data: { ...change, replacements: 1 } };
    }
    const file = await readTextFile(path);
    if (oldString === "" && file.text !== "") {
      throw new ToolError(
        `old_string is empty, which only creates a file or fills an empty one; ${path} has content.`,
      );
    }
    const edited = oldString === ""
      ? { text: newString, replacements: 1 }
      : applyEdit(path, file.text, { oldString, newString, replaceAll: input.replace_all ?? false });
    const change = await commitChange(ctx, path, {
      before: file.text,
      after: edited.text,
      bytes: withLineEnding(edited.text, file.lineEnding),
    });
    return { data: { ...change, replacements: edited.replacements } };
  },
  toContent: (output) => [{
    type: "text",
    text: output.replacements > 1
      ? `${describeChange(output)}\n(${plural(output.replacements, "occurrence")} replaced.)`
      : describeChange(output),
  }],
  render: editRenderer,
});
