import { z } from "zod";

export const globInputSchema = z.strictObject({
  pattern: z.string().min(1).describe(
    'The glob pattern to match file paths against, e.g. "**/*.ts" or "src/**/*.test.ts"',
  ),
  path: z.string().min(1).optional().describe(
    "The directory to search in (default: the working directory). Omit it rather than passing null",
  ),
});

export type GlobInput = z.infer<typeof globInputSchema>;

export interface GlobOutput {
  /** Matches, newest first, relative to the working directory when inside it. */
  filenames: string[];
  /** How many files matched in all, including those cut. */
  numFiles: number;
  truncated: boolean;
}
