import { extname } from "node:path";
import { buildTool } from "../../tool/build-tool.ts";
import { formatBytes } from "../../render/units.ts";
import { ToolError } from "../shared/errors.ts";
import { requireFile } from "../shared/files.ts";
import { resolveToolPath } from "../shared/paths.ts";
import { checkWorkspaceAccess } from "../shared/permissions.ts";
import { recordFileState } from "../shared/read-state.ts";
import { looksBinary } from "../shared/text-file.ts";
import { readLineWindow } from "./lines.ts";
import { imageFormatOf, imageInfo, isPdf, pdfInfo, readHead } from "./media.ts";
import prompt from "./prompt.md" with { type: "text" };
import { readContent, readRenderer } from "./render.ts";
import { type ReadInput, readInputSchema, type ReadOutput } from "./schema.ts";

const READ_DEFAULT_LIMIT = 2000;
const READ_MAX_LINE_CHARS = 2000;
/** Read limits itself so its result never needs persisting (the model would Read it back). */
export const READ_MAX_CHARS = 40_000;

const NUMBER_COLUMN = 6;

/** Extensions that are binary even when their first bytes hold no NUL. */
const BINARY_EXTENSIONS = new Set(
  (".7z .a .avi .bin .bmp .class .db .dll .dylib .exe .gz .ico .jar .mkv .mov .mp3 .mp4 .o .pyc " +
    ".so .sqlite .tar .tgz .tif .tiff .ttf .wasm .wav .woff .woff2 .xz .zip .zst").split(" "),
);

export const readTool = buildTool<ReadInput, ReadOutput>({
  name: "Read",
  category: "read",
  searchHint: "view show open file contents lines cat",
  description: "Reads a text file with line numbers; describes images and PDFs.",
  prompt: () => prompt,
  inputSchema: readInputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  interruptBehavior: () => "cancel",
  maxResultSizeChars: Infinity,
  getPath: (input, ctx) => resolveToolPath(input.file_path, ctx.cwd),
  checkPermissions: async (input, ctx) =>
    checkWorkspaceAccess(resolveToolPath(input.file_path, ctx.cwd), ctx, "read"),
  async call(input, ctx) {
    const path = resolveToolPath(input.file_path, ctx.cwd);
    const stats = await requireFile(path);
    const output = await readFileAs(path, stats.size, input);
    recordFileState(ctx, path, stats);
    return { data: output };
  },
  toContent: (output) => [{ type: "text", text: readContent(output) }],
  render: readRenderer,
});

async function readFileAs(path: string, size: number, input: ReadInput): Promise<ReadOutput> {
  const extension = extname(path).toLowerCase();
  const head = await readHead(path);
  const image = imageFormatOf(extension);
  if (input.pages !== undefined && !isPdf(head)) {
    throw new ToolError(`pages applies to PDF files only; ${path} is not a PDF. Use offset and limit.`);
  }
  if (image) return { kind: "image", filePath: path, bytes: size, ...imageInfo(image, head) };
  if (isPdf(head)) {
    const info = await pdfInfo(path, size);
    checkPageRange(input.pages, info.pages, path);
    return { kind: "pdf", filePath: path, bytes: size, ...info, requestedPages: input.pages };
  }
  if (BINARY_EXTENSIONS.has(extension) || looksBinary(head)) {
    throw new ToolError(
      `${path} is a binary file (${formatBytes(size)}); Read shows text, images and PDFs only. ` +
        "Use Bash tools such as `file` or `xxd` to inspect it.",
    );
  }
  if (size === 0) return { kind: "empty", filePath: path };
  return readTextWindow(path, input);
}

async function readTextWindow(path: string, input: ReadInput): Promise<ReadOutput> {
  const startLine = Math.max(input.offset ?? 1, 1);
  const window = await readLineWindow(path, {
    offset: startLine,
    limit: input.limit ?? READ_DEFAULT_LIMIT,
    maxLineChars: READ_MAX_LINE_CHARS,
    maxChars: READ_MAX_CHARS,
    lineOverheadChars: NUMBER_COLUMN + 2,
  });
  if (window.lines.length === 0) {
    throw new ToolError(
      `offset ${startLine} is past the end of ${path}, which has ${window.totalLines} lines. ` +
        `Use an offset from 1 to ${window.totalLines}.`,
    );
  }
  const content = window.lines.map((line, i) => `${String(startLine + i).padStart(NUMBER_COLUMN)}\t${line}`)
    .join("\n");
  return {
    kind: "text",
    filePath: path,
    content,
    startLine,
    numLines: window.lines.length,
    totalLines: window.totalLines,
    shortenedLines: window.shortenedLines,
    cutAtChars: window.cutAtChars,
  };
}

function checkPageRange(pages: string | undefined, pageCount: number | undefined, path: string): void {
  if (pages === undefined || pageCount === undefined) return;
  const highest = Math.max(...pages.split(/[,-]/).map((n) => Number(n.trim())));
  const lowest = Math.min(...pages.split(/[,-]/).map((n) => Number(n.trim())));
  if (lowest < 1 || highest > pageCount) {
    throw new ToolError(`pages "${pages}" is out of range: ${path} has ${pageCount} pages.`);
  }
}
