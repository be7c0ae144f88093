import { z } from "zod";
import type { FileChange } from "../../render/file-change.ts";

export const writeInputSchema = z.strictObject({
  file_path: z.string().min(1).describe("The file to write: absolute, or relative to the working directory"),
  content: z.string().describe("The complete new content of the file"),
});

export type WriteInput = z.infer<typeof writeInputSchema>;
export type WriteOutput = FileChange;
