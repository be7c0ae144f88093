import { stat } from "node:fs/promises";
import { isAbsolute, relative, sep } from "node:path";
import { buildTool } from "../../tool/build-tool.ts";
import { ToolError } from "../shared/errors.ts";
import { requireSearchRoot } from "../shared/files.ts";
import { displayPath, resolveToolPath } from "../shared/paths.ts";
import { checkWorkspaceAccess } from "../shared/permissions.ts";
import { walkFiles } from "../shared/walk.ts";
import prompt from "./prompt.md" with { type: "text" };
import { globContent, globRenderer } from "./render.ts";
import { type GlobInput, globInputSchema, type GlobOutput } from "./schema.ts";

export const GLOB_MAX_RESULTS = 100;
const SKIPPED_DIRS = ["node_modules", ".git"];

export const globTool = buildTool<GlobInput, GlobOutput>({
  name: "Glob",
  category: "read",
  searchHint: "find files by name pattern wildcard list",
  description: "Finds files whose paths match a glob pattern, newest first.",
  prompt: () => prompt,
  inputSchema: globInputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  interruptBehavior: () => "cancel",
  maxResultSizeChars: 100_000,
  // The walk's real root: a pattern like `../other/**` or `/etc/*` reaches past `path`.
  getPath: (input, ctx) => globRoot(input, ctx.cwd),
  checkPermissions: async (input, ctx) => checkWorkspaceAccess(globRoot(input, ctx.cwd), ctx, "read"),
  async call(input, ctx) {
    const searchDir = resolveToolPath(input.path ?? ".", ctx.cwd);
    if (!(await requireSearchRoot(searchDir)).isDirectory()) {
      throw new ToolError(`${searchDir} is a file, not a directory. Pass a directory as path.`);
    }
    const { root, pattern } = splitStaticPrefix(input.pattern, searchDir);
    const glob = new Bun.Glob(pattern);
    const skipDirNames = new Set(SKIPPED_DIRS.filter((name) => !input.pattern.includes(name)));
    const matches: { path: string; mtimeMs: number }[] = [];
    for await (
      const path of walkFiles(root, {
        skipDirNames,
        gitignore: false,
        symlinkedFiles: true,
        signal: ctx.abortSignal,
      })
    ) {
      if (!glob.match(relative(root, path).split(sep).join("/"))) continue;
      matches.push({ path, mtimeMs: (await stat(path).catch(() => undefined))?.mtimeMs ?? 0 });
    }
    matches.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
    return {
      data: {
        filenames: matches.slice(0, GLOB_MAX_RESULTS).map((m) => displayPath(m.path, ctx.cwd)),
        numFiles: matches.length,
        truncated: matches.length > GLOB_MAX_RESULTS,
      },
    };
  },
  toContent: (output) => [{ type: "text", text: globContent(output) }],
  render: globRenderer,
});

function globRoot(input: GlobInput, cwd: string): string {
  return splitStaticPrefix(input.pattern, resolveToolPath(input.path ?? ".", cwd)).root;
}

/**
 * Starts the walk at the pattern's literal leading directories (`src/lib/**` walks `src/lib`), and
 * at the pattern's own root when it is absolute.
 */
function splitStaticPrefix(pattern: string, searchDir: string): { root: string; pattern: string } {
  const segments = pattern.split("/");
  let literal = 0;
  while (literal < segments.length - 1 && !/[*?[\]{}!]/.test(segments[literal]!)) literal++;
  const prefix = segments.slice(0, literal).join("/");
  const rest = segments.slice(literal).join("/");
  if (isAbsolute(pattern)) return { root: prefix || "/", pattern: rest };
  return { root: resolveToolPath(prefix || ".", searchDir), pattern: rest };
}
