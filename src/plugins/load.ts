/**
 * Reads one plugin directory: the manifest (`plugin.json`, or `.claude-plugin/plugin.json` as Claude
 * Code lays plugins out) and every component it declares. Any problem makes the plugin "broken":
 * reported with file and field, and skipped, never half-loaded.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { HooksConfig } from "../exec/hooks/config.ts";
import type { LspServerConfig } from "../lsp/config.ts";
import { scanSkills, type SkillEntry } from "../tools/skill/catalog.ts";
import { type AgentDefinition, readAgents } from "./agents.ts";
import { readHooks, readLspServers, readMcpServers } from "./components.ts";
import {
  IGNORED_FIELDS,
  type McpServerEntry,
  pluginManifestSchema,
  type PluginProblem,
  problemsOf,
} from "./manifest.ts";

export type PluginScope = "user" | "project";

export interface LoadedPlugin {
  name: string;
  version: string;
  description?: string;
  root: string;
  scope: PluginScope;
  manifestFile: string;
  lspServers: Record<string, LspServerConfig>;
  mcpServers: Record<string, McpServerEntry>;
  hooks: HooksConfig;
  agents: AgentDefinition[];
  skills: SkillEntry[];
  /** Things ignored on purpose (unknown fields, hook events toolrt does not run). */
  warnings: string[];
}

export type PluginLoad =
  | { ok: true; plugin: LoadedPlugin }
  | { ok: false; root: string; scope: PluginScope; name?: string; problems: PluginProblem[] };

const MANIFEST_LOCATIONS = ["plugin.json", join(".claude-plugin", "plugin.json")];

function manifestFileOf(root: string): string | undefined {
  return MANIFEST_LOCATIONS.map((file) => join(root, file)).find((file) => existsSync(file));
}

export function loadPlugin(root: string, scope: PluginScope): PluginLoad {
  const broken = (problems: PluginProblem[], name?: string): PluginLoad => ({
    ok: false,
    root,
    scope,
    problems,
    ...(name ? { name } : {}),
  });
  const manifestFile = manifestFileOf(root);
  if (!manifestFile) {
    return broken([{
      file: join(root, "plugin.json"),
      field: "(file)",
      message: "no plugin.json in the plugin directory",
    }]);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(manifestFile, "utf8"));
  } catch (error) {
    return broken([{
      file: manifestFile,
      field: "(root)",
      message: `not valid JSON: ${(error as Error).message}`,
    }]);
  }
  const parsed = pluginManifestSchema.safeParse(raw);
  const manifestProblems = parsed.success ? [] : problemsOf(manifestFile, parsed.error);
  const fields = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const name = typeof fields.name === "string" ? fields.name : basename(root);
  // Components are checked even when the manifest has problems, so one run reports them all.
  const usable = (field: string) =>
    manifestProblems.some((p) => p.field.split(".")[0] === field) ? undefined : fields[field];
  const lsp = readLspServers(root, manifestFile, usable("lspServers"));
  const mcp = readMcpServers(root, manifestFile, usable("mcpServers"));
  const hooks = readHooks(root, manifestFile, usable("hooks"));
  const agents = readAgents(componentDirs(root, usable("agents") as Paths, "agents"), name);
  const skillScans = componentDirs(root, usable("skills") as Paths, "skills").map((dir) =>
    scanSkills(dir, name, `${name}:`)
  );
  const problems = [
    ...manifestProblems,
    ...lsp.problems,
    ...mcp.problems,
    ...hooks.problems,
    ...agents.problems,
    ...skillScans.flatMap((scan) => scan.problems),
  ];
  if (!parsed.success || problems.length) return broken(problems, name);
  const manifest = parsed.data;
  const known = new Set([...Object.keys(pluginManifestSchema.shape), ...IGNORED_FIELDS]);
  const unknownFields = Object.keys(fields).filter((key) => !known.has(key));
  return {
    ok: true,
    plugin: {
      name: manifest.name,
      version: manifest.version,
      ...(manifest.description ? { description: manifest.description } : {}),
      root,
      scope,
      manifestFile,
      lspServers: expandPluginRoot(lsp.value, root),
      mcpServers: expandPluginRoot(mcp.value, root),
      hooks: expandPluginRoot(hooks.value, root),
      agents: agents.agents,
      skills: skillScans.flatMap((scan) => scan.skills),
      warnings: [
        ...unknownFields.map((field) => `${manifestFile}: unknown field ${field} (ignored)`),
        ...hooks.warnings,
      ],
    },
  };
}

/** The declared paths of a component, or its standard directory (`skills/`, `agents/`) when it exists. */
type Paths = string | string[] | undefined;

function componentDirs(root: string, declared: Paths, standard: string): string[] {
  if (declared === undefined) return existsSync(join(root, standard)) ? [join(root, standard)] : [];
  return (Array.isArray(declared) ? declared : [declared]).map((path) => join(root, path));
}

/**
 * Replaces `${TOOLRT_PLUGIN_ROOT}` (and Claude Code's `${CLAUDE_PLUGIN_ROOT}`) in every string of a
 * component, so commands find the plugin's own scripts wherever it is installed.
 */
function expandPluginRoot<T>(value: T, root: string): T {
  if (typeof value === "string") {
    return value.replaceAll("${TOOLRT_PLUGIN_ROOT}", root).replaceAll("${CLAUDE_PLUGIN_ROOT}", root) as T;
  }
  if (Array.isArray(value)) return value.map((item) => expandPluginRoot(item, root)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expandPluginRoot(item, root)]),
    ) as T;
  }
  return value;
}
