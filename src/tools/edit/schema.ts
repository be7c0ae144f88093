import { z } from "zod";
import type { FileChange } from "../../render/file-change.ts";

export const editInputSchema = z.strictObject({
  file_path: z.string().min(1).describe("The file to change: absolute, or relative to the working directory"),
  old_string: z.string().describe("The exact text to replace"),
  new_string: z.string().describe("The text to put in its place (must differ from old_string)"),
  replace_all: z.boolean().optional().describe("Replace every occurrence of old_string (default false)"),
});

export type EditInput = z.infer<typeof editInputSchema>;
export type EditOutput = FileChange & { replacements: number };
