/**
 * The component fields of a manifest, inline or in their own files, checked each against its
 * schema: problems name the file they are in and the field path inside it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { HOOK_EVENTS, type HooksConfig, hooksConfigSchema } from "../policy/hooks-schema.ts";
import { type LspServerConfig, lspServersSchema } from "../lsp/config.ts";
import { type McpServerEntry, mcpServersSchema, type PluginProblem, problemsOf } from "./manifest.ts";

export interface ComponentResult<T> {
  value: T;
  problems: PluginProblem[];
  warnings: string[];
}

interface Source {
  /** Where the content was written: the manifest or the component's own file. */
  file: string;
  /** The field path of the content inside that file. */
  prefix: string;
  content: unknown;
}

/**
 * Reads the field's value: an object stays where it is; a path is read as JSON, and `wrapper`
 * (`mcpServers` in `.mcp.json`, `hooks` in `hooks.json`) is unwrapped when present.
 */
function sourceOf(
  root: string,
  manifestFile: string,
  field: string,
  value: unknown,
  wrapper?: string,
): Source | PluginProblem {
  if (typeof value !== "string") return { file: manifestFile, prefix: field, content: value };
  const file = join(root, value);
  if (!existsSync(file)) {
    return { file: manifestFile, field, message: `${value} does not exist in the plugin` };
  }
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return { file, field: "(root)", message: `not valid JSON: ${(error as Error).message}` };
  }
  if (wrapper && content && typeof content === "object" && wrapper in content) {
    return { file, prefix: wrapper, content: (content as Record<string, unknown>)[wrapper] };
  }
  return { file, prefix: "", content };
}

function checked<S extends z.ZodType>(
  source: Source,
  schema: S,
): { value?: z.infer<S>; problems: PluginProblem[] } {
  const parsed = schema.safeParse(source.content);
  if (parsed.success) return { value: parsed.data, problems: [] };
  const problems = problemsOf(source.file, parsed.error).map((p) => ({
    ...p,
    field: [source.prefix, p.field === "(root)" ? "" : p.field].filter(Boolean).join(".") || "(root)",
  }));
  return { problems };
}

function isProblem(value: Source | PluginProblem): value is PluginProblem {
  return "message" in value;
}

/** A component in its own schema: inline in the manifest, or in a file (`wrapper` unwrapped). */
function readComponent<S extends z.ZodType>(
  schema: S,
  field: string,
  wrapper?: string,
): (
  root: string,
  manifestFile: string,
  value: unknown,
) => ComponentResult<z.infer<S> | Record<string, never>> {
  return (root, manifestFile, value) => {
    if (value === undefined) return { value: {}, problems: [], warnings: [] };
    const source = sourceOf(root, manifestFile, field, value, wrapper);
    if (isProblem(source)) return { value: {}, problems: [source], warnings: [] };
    const result = checked(source, schema);
    return { value: result.value ?? {}, problems: result.problems, warnings: [] };
  };
}

export const readLspServers: (
  root: string,
  manifestFile: string,
  value: unknown,
) => ComponentResult<Record<string, LspServerConfig>> = readComponent(lspServersSchema, "lspServers");

export const readMcpServers: (
  root: string,
  manifestFile: string,
  value: unknown,
) => ComponentResult<Record<string, McpServerEntry>> = readComponent(
  mcpServersSchema,
  "mcpServers",
  "mcpServers",
);

/** Claude Code has more hook events than toolrt runs; those are skipped with a warning. */
export function readHooks(root: string, manifestFile: string, value: unknown): ComponentResult<HooksConfig> {
  if (value === undefined) return { value: {}, problems: [], warnings: [] };
  const source = sourceOf(root, manifestFile, "hooks", value, "hooks");
  if (isProblem(source)) return { value: {}, problems: [source], warnings: [] };
  const content = (source.content ?? {}) as Record<string, unknown>;
  const known = new Set<string>(HOOK_EVENTS);
  const warnings = Object.keys(content).filter((event) => !known.has(event)).map((event) =>
    `${source.file}: hook event ${event} is not run by toolrt (it runs ${HOOK_EVENTS.join(", ")}); skipped`
  );
  const kept = Object.fromEntries(Object.entries(content).filter(([event]) => known.has(event)));
  const result = checked({ ...source, content: kept }, hooksConfigSchema);
  return { value: result.value ?? {}, problems: result.problems, warnings };
}
