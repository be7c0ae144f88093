/**
 * The plugin manifest, `plugin.json`: name and version, and any of `mcpServers`, `hooks`, `agents`,
 * `skills`, `lspServers`. Component fields take the Claude Code forms: inline objects, or paths
 * relative to the plugin root (`"./.lsp.json"`, `["./agents/review.md"]`).
 */
import { z } from "zod";

/** A plugin name: also a namespace (`<plugin>:<skill>`, `plugin_<plugin>_<server>`), so kept plain. */
const PLUGIN_NAME = /^[a-z0-9][a-z0-9_-]*$/;

const relativePath = z.string().min(1).refine(
  (path) => !path.startsWith("/") && !path.split(/[\\/]/).includes(".."),
  'a path inside the plugin, relative to its root (e.g. "./skills"), without `..`',
);

const pathOrPaths = z.union([relativePath, z.array(relativePath)]);

/** An MCP server in `.mcp.json` shape; the MCP client checks the details when it connects. */
const mcpServerSchema = z.union([
  z.looseObject({
    type: z.literal("stdio").optional(),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
  }),
  z.looseObject({
    type: z.enum(["http", "sse"]),
    url: z.string().min(1),
    headers: z.record(z.string(), z.string()).optional(),
  }),
]);

export const mcpServersSchema = z.record(z.string().min(1), mcpServerSchema);

export type McpServerEntry = z.infer<typeof mcpServerSchema>;

/**
 * An inline component or the path of a file holding it. The contents are checked apart
 * (`components.ts`), so a problem is reported at its own field, in its own file.
 */
const inlineOrFile = (what: string) =>
  z.union([relativePath, z.record(z.string(), z.unknown())], {
    error: `an object of ${what}, or the path of a JSON file inside the plugin holding them`,
  });

export const pluginManifestSchema = z.object({
  name: z.string().regex(
    PLUGIN_NAME,
    "lower-case letters, digits, `-` and `_`, starting with a letter or digit",
  ),
  version: z.string().min(1),
  description: z.string().optional(),
  mcpServers: inlineOrFile("MCP servers").optional(),
  hooks: inlineOrFile("hook events").optional(),
  agents: pathOrPaths.optional(),
  skills: pathOrPaths.optional(),
  lspServers: inlineOrFile("language servers").optional(),
});

/** Fields of Claude Code manifests that toolrt accepts and does not use. */
export const IGNORED_FIELDS = new Set([
  "$schema",
  "author",
  "homepage",
  "repository",
  "license",
  "keywords",
  "commands",
  "outputStyles",
  "userConfig",
  "channels",
  "displayName",
]);

/** What is wrong, and where: the file and the field path inside it (`lspServers.ts.command`). */
export interface PluginProblem {
  file: string;
  field: string;
  message: string;
}

export function problemsOf(file: string, error: z.ZodError): PluginProblem[] {
  return error.issues.map((issue) => ({
    file,
    field: issue.path.map(String).join(".") || "(root)",
    message: issue.message,
  }));
}
