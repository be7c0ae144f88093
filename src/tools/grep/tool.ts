import { stat } from "node:fs/promises";
import { buildTool } from "../../tool/build-tool.ts";
import { ToolError } from "../shared/errors.ts";
import { requireSearchRoot } from "../shared/files.ts";
import { displayPath, resolveToolPath } from "../shared/paths.ts";
import { checkWorkspaceAccess } from "../shared/permissions.ts";
import { searchBuiltin, searchedFiles } from "./builtin-engine.ts";
import { contentEntries, countEntries, matchingLines } from "./format.ts";
import prompt from "./prompt.md" with { type: "text" };
import { grepContent, grepRenderer } from "./render.ts";
import { searchRipgrep } from "./ripgrep-engine.ts";
import { type GrepInput, grepInputSchema, type GrepOutput } from "./schema.ts";
import type { LineHit, SearchEngine, SearchRequest } from "./search.ts";

const GREP_DEFAULT_HEAD_LIMIT = 250;

/** `auto` uses `rg` when it is on PATH and the built-in engine otherwise. */
export type GrepEngineChoice = "auto" | "builtin" | "ripgrep";

export function createGrepTool(opts: { engine?: GrepEngineChoice } = {}) {
  const choice = opts.engine ?? "auto";
  return buildTool<GrepInput, GrepOutput>({
    name: "Grep",
    category: "read",
    searchHint: "search file contents regex ripgrep find text code",
    description: "Searches file contents with a regular expression, honouring .gitignore.",
    prompt: () => prompt,
    inputSchema: grepInputSchema,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    interruptBehavior: () => "cancel",
    maxResultSizeChars: 20_000,
    getPath: (input, ctx) => resolveToolPath(input.path ?? ".", ctx.cwd),
    checkPermissions: async (input, ctx) =>
      checkWorkspaceAccess(resolveToolPath(input.path ?? ".", ctx.cwd), ctx, "read"),
    async call(input, ctx) {
      const root = resolveToolPath(input.path ?? ".", ctx.cwd);
      await requireSearchRoot(root);
      const mode = input.output_mode ?? "files_with_matches";
      const context = mode === "content" ? input["-C"] ?? input.context ?? 0 : 0;
      const request = {
        pattern: input.pattern,
        root,
        caseInsensitive: input["-i"] ?? false,
        multiline: input.multiline ?? false,
        glob: input.glob,
        type: input.type,
        before: mode === "content" ? input["-B"] ?? context : 0,
        after: mode === "content" ? input["-A"] ?? context : 0,
        signal: ctx.abortSignal,
      };
      const result = await pickEngine(choice)(request);
      const guard = ctx.readGuard && remembered(ctx.readGuard);
      const shown = guard
        ? [...result.files].filter(([path]) => guard(path) === undefined)
        : [...result.files];
      const skipped = guard ? await coveredFiles(request, guard, ctx.cwd) : [];
      const files = await orderFiles(
        shown.map(([path, hits]) => [displayPath(path, ctx.cwd), hits, path] as const),
        mode === "files_with_matches",
      );
      const entries = mode === "content"
        ? contentEntries(files, {
          lineNumbers: input["-n"] ?? true,
          onlyMatching: input["-o"] ?? false,
          withContext: input["-A"] !== undefined || input["-B"] !== undefined || context > 0,
        })
        : mode === "count"
        ? countEntries(files)
        : files.map(([file]) => file);
      const offset = input.offset ?? 0;
      const headLimit = input.head_limit ?? GREP_DEFAULT_HEAD_LIMIT;
      return {
        data: {
          mode,
          entries: entries.slice(offset, headLimit === 0 ? undefined : offset + headLimit),
          totalEntries: entries.length,
          offset,
          numFiles: files.length,
          numLines: files.reduce((sum, [, hits]) => sum + matchingLines(hits), 0),
          capped: result.capped,
          ...(skipped.length > 0 ? { skipped } : {}),
        },
      };
    },
    toContent: (output) => [{ type: "text", text: grepContent(output) }],
    render: grepRenderer,
  });
}

export const grepTool = createGrepTool();

function pickEngine(choice: GrepEngineChoice): SearchEngine {
  const rg = choice === "builtin" ? null : Bun.which("rg");
  if (rg) return (request) => searchRipgrep(request, rg);
  if (choice === "ripgrep") throw new ToolError("rg (ripgrep) is not on PATH.");
  return searchBuiltin;
}

/**
 * The guard with each path's answer kept for this search: a matching file is asked about twice
 * (left out of the results, named in the note), and each answer is a whole Read decision.
 */
function remembered(guard: (path: string) => string | undefined): (path: string) => string | undefined {
  const answers = new Map<string, string | undefined>();
  return (path) => {
    if (!answers.has(path)) answers.set(path, guard(path));
    return answers.get(path);
  };
}

/** How many files a search names as left out, at most; past it the note says there are more. */
const MAX_SKIPPED_NAMED = 20;
/** How many searched files are looked at for the note; matching files are left out past it too. */
const MAX_FILES_LISTED = 10_000;

/**
 * The files the search looked into that a Read rule keeps from being shown without a person, named
 * with the rule. Taken from every file searched, not only the matching ones, so the list says
 * nothing about what the files hold (a list of matching files left out would answer "does .env
 * contain X?" one pattern at a time).
 */
async function coveredFiles(
  request: SearchRequest,
  guard: (path: string) => string | undefined,
  cwd: string,
): Promise<string[]> {
  const found: string[] = [];
  let count = 0;
  for await (const path of searchedFiles(request)) {
    if (++count > MAX_FILES_LISTED) {
      return [...found, `…files past the first ${MAX_FILES_LISTED} searched not listed`];
    }
    const rule = guard(path);
    if (rule === undefined) continue;
    if (found.length === MAX_SKIPPED_NAMED) return [...found, "…and more"];
    found.push(`${displayPath(path, cwd)} (${rule})`);
  }
  return found;
}

/** By display path; files_with_matches puts the most recently modified first, as Glob does. */
async function orderFiles(
  files: (readonly [string, LineHit[], string])[],
  byMtime: boolean,
): Promise<[string, LineHit[]][]> {
  const withTimes = await Promise.all(
    files.map(async ([file, hits, path]) => ({
      file,
      hits,
      mtimeMs: byMtime ? (await stat(path).catch(() => undefined))?.mtimeMs ?? 0 : 0,
    })),
  );
  withTimes.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return withTimes.map(({ file, hits }) => [file, hits]);
}
