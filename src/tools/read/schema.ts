import { z } from "zod";

const PAGE_RANGES = /^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$/;

export const readInputSchema = z.strictObject({
  file_path: z.string().min(1).describe("The file to read: absolute, or relative to the working directory"),
  offset: z.number().int().min(0).optional().describe(
    "The line number to start reading from (1-based). Only give it for files too large to read at once",
  ),
  limit: z.number().int().min(1).optional().describe(
    "The number of lines to read. Only give it for files too large to read at once",
  ),
  pages: z.string().regex(PAGE_RANGES, "pages must look like 3, 1-5 or 1,3,5-7").optional().describe(
    'Page range for PDF files (e.g. "1-5", "3", "1,3,5-7")',
  ),
});

export type ReadInput = z.infer<typeof readInputSchema>;

export type ReadOutput =
  | {
    kind: "text";
    filePath: string;
    /** The lines in `cat -n` form: right-aligned number, tab, text. */
    content: string;
    startLine: number;
    numLines: number;
    totalLines: number;
    shortenedLines: number;
    cutAtChars: boolean;
  }
  | { kind: "empty"; filePath: string }
  | { kind: "image"; filePath: string; bytes: number; format: string; width?: number; height?: number }
  | {
    kind: "pdf";
    filePath: string;
    bytes: number;
    version?: string;
    pages?: number;
    requestedPages?: string;
  };
