import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { buildTool } from "../../tool/build-tool.ts";
import { assertChangeable, commitChange, describeChange, validateChange } from "../shared/file-change.ts";
import { resolveToolPath } from "../shared/paths.ts";
import { checkWorkspaceAccess } from "../shared/permissions.ts";
import { decodeText } from "../shared/text-file.ts";
import prompt from "./prompt.md" with { type: "text" };
import { writeRenderer } from "./render.ts";
import { type WriteInput, writeInputSchema, type WriteOutput } from "./schema.ts";

export const writeTool = buildTool<WriteInput, WriteOutput>({
  name: "Write",
  category: "edit",
  searchHint: "create new file save overwrite",
  description: "Writes a whole file, creating it or replacing a file read in this session.",
  prompt: () => prompt,
  inputSchema: writeInputSchema,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  // Overwriting loses the old content. Without the working directory a relative path cannot be
  // checked, so it counts as an overwrite.
  isDestructive: (input) => !isAbsolute(input.file_path) || existsSync(input.file_path),
  interruptBehavior: () => "block",
  getPath: (input, ctx) => resolveToolPath(input.file_path, ctx.cwd),
  checkPermissions: async (input, ctx) =>
    checkWorkspaceAccess(resolveToolPath(input.file_path, ctx.cwd), ctx, "write"),
  validateInput: async (input, ctx) => validateChange(ctx, resolveToolPath(input.file_path, ctx.cwd)),
  async call(input, ctx) {
    const path = resolveToolPath(input.file_path, ctx.cwd);
    const existing = await assertChangeable(ctx, path);
    const before = existing ? decodeText(await readFile(path)).text : undefined;
    const after = input.content.replaceAll("\r\n", "\n");
    return { data: await commitChange(ctx, path, { before, after, bytes: input.content }) };
  },
  toContent: (output) => [{ type: "text", text: describeChange(output) }],
  render: writeRenderer,
});
