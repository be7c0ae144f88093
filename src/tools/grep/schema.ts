import { z } from "zod";

const count = z.number().int().min(0);

export const grepInputSchema = z.strictObject({
  pattern: z.string().min(1).describe("The regular expression to search file contents for"),
  path: z.string().min(1).optional().describe("File or directory to search (default: the working directory)"),
  glob: z.string().min(1).optional().describe(
    'Only search files matching this glob, e.g. "*.js" or "src/**/*.{ts,tsx}"',
  ),
  output_mode: z.enum(["content", "files_with_matches", "count"]).optional().describe(
    '"content" shows matching lines, "files_with_matches" (default) the files, "count" matches per file',
  ),
  "-B": count.optional().describe('Lines of context before each match (output_mode "content" only)'),
  "-A": count.optional().describe('Lines of context after each match (output_mode "content" only)'),
  "-C": count.optional().describe(
    'Lines of context before and after each match (output_mode "content" only)',
  ),
  context: count.optional().describe("Same as -C"),
  "-n": z.boolean().optional().describe('Show line numbers (output_mode "content" only; default true)'),
  "-i": z.boolean().optional().describe("Case-insensitive search"),
  "-o": z.boolean().optional().describe(
    'Show only the matching part of each line (output_mode "content" only)',
  ),
  type: z.string().min(1).optional().describe('File type to search, e.g. "js", "py", "rust", "ts"'),
  head_limit: count.optional().describe(
    "Show only the first N entries (lines, files or counts); default 250, 0 for all",
  ),
  offset: count.optional().describe("Skip the first N entries before applying head_limit"),
  multiline: z.boolean().optional().describe("Let patterns span lines; `.` then matches newlines too"),
});

export type GrepInput = z.infer<typeof grepInputSchema>;
export type OutputMode = NonNullable<GrepInput["output_mode"]>;

export interface GrepOutput {
  mode: OutputMode;
  /** The page of entries shown: output lines, file paths or `path:count` lines. */
  entries: string[];
  totalEntries: number;
  offset: number;
  numFiles: number;
  /** Matching lines across all files. */
  numLines: number;
  /** The engine stopped at its match cap; counts are lower bounds. */
  capped: boolean;
  /** Files searched that a Read rule keeps from being shown without a person, with the rule; left out of the results. */
  skipped?: string[];
}
