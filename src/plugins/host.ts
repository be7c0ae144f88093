/**
 * The plugin source of a session: discovers the plugins, and on every (re)load puts what the enabled
 * and allowed ones bring where it belongs — the LSP tool into the pool (through `setSource` /
 * `removeSource`, which rebuild it with `refreshPool()`), language servers into the LSP manager,
 * skills into the Skill tool's catalog. Blocked, broken and disabled plugins contribute nothing.
 */
import type { ResultEnricher } from "../exec/pipeline.ts";
import type { HooksConfig } from "../exec/hooks/config.ts";
import type { LspServerConfig, LspServerSpec } from "../lsp/config.ts";
import { LspManager, type LspManagerOptions } from "../lsp/manager.ts";
import type { PoolSink } from "../pool/fan-out.ts";
import { scanSkills, type SkillProblem } from "../tools/skill/catalog.ts";
import type { SkillCatalog } from "../tools/skill/tool.ts";
import { createDiagnosticsEnricher } from "../tools/lsp/diagnostics-enricher.ts";
import { createLspTool } from "../tools/lsp/tool.ts";
import type { AgentDefinition } from "./agents.ts";
import { pluginAgents, pluginHooks, pluginLspServers, pluginMcpServers } from "./contributions.ts";
import { discoverPlugins, type PluginStatus } from "./discover.ts";
import { setEnabled } from "./enablement.ts";
import type { LoadedPlugin } from "./load.ts";
import { projectSkillsDir } from "./locations.ts";
import type { McpServerEntry } from "./manifest.ts";

/** The pool source holding the LSP tool while any language server is declared. */
const LSP_SOURCE = "plugin-lsp";

export interface PluginHostOptions {
  pool: PoolSink;
  skills: SkillCatalog;
  cwd: string;
  stateDir: string;
  env?: NodeJS.ProcessEnv;
  /** The managed allow-list of plugin names; when given, no other plugin runs. */
  allowedPlugins?: readonly string[];
  /** `lspServers` declared in settings rather than by a plugin. */
  settingsLspServers?: Record<string, LspServerConfig>;
  lsp?: Omit<LspManagerOptions, "rootDir">;
}

export class PluginHost {
  readonly lsp: LspManager;
  /** Runs after Edit/Write/MultiEdit: hand it to `createSession({ enrichers })`. */
  readonly diagnosticsEnricher: ResultEnricher;
  readonly #options: PluginHostOptions;
  #statuses: PluginStatus[] = [];
  #skillProblems: SkillProblem[] = [];
  #stopping: Promise<void>[] = [];

  constructor(options: PluginHostOptions) {
    this.#options = options;
    this.lsp = new LspManager({ rootDir: options.cwd, env: options.env, ...options.lsp });
    this.diagnosticsEnricher = createDiagnosticsEnricher(this.lsp);
  }

  get statuses(): readonly PluginStatus[] {
    return this.#statuses;
  }

  /** The plugins that run: enabled in this workspace, allowed by policy, and not broken. */
  get active(): LoadedPlugin[] {
    return this.#statuses.filter((s) => s.state === "enabled" && s.plugin).map((s) => s.plugin!);
  }

  /** Workspace skills (`.toolrt/skills/`) that were left out, with file and field. */
  get skillProblems(): readonly SkillProblem[] {
    return this.#skillProblems;
  }

  /** Reads the plugin dirs again and rebuilds everything that depends on them. */
  reload(): readonly PluginStatus[] {
    const { cwd, stateDir, env, allowedPlugins } = this.#options;
    this.#statuses = discoverPlugins({ cwd, stateDir, env, allowedPlugins });
    const active = this.active;

    const workspaceSkills = scanSkills(projectSkillsDir(cwd), "project");
    this.#skillProblems = workspaceSkills.problems;
    this.#options.skills.set([...workspaceSkills.skills, ...active.flatMap((plugin) => plugin.skills)]);

    const specs = [...settingsSpecs(this.#options.settingsLspServers), ...pluginLspServers(active)];
    this.#stopping.push(this.lsp.configure(specs).catch(() => {}));
    const owners = [...new Set(specs.map((spec) => spec.owner))];
    const { pool } = this.#options;
    if (owners.length === 0) pool.removeSource(LSP_SOURCE);
    else pool.setSource(LSP_SOURCE, [createLspTool(this.lsp, { kind: "plugin", server: owners.join(",") })]);
    return this.#statuses;
  }

  /** Records the choice for this workspace and reloads. Unknown names are an error the caller shows. */
  enable(name: string): readonly PluginStatus[] {
    return this.#switch(name, true);
  }

  disable(name: string): readonly PluginStatus[] {
    return this.#switch(name, false);
  }

  mcpServers(): { mcpServers: Record<string, McpServerEntry> } {
    return pluginMcpServers(this.active);
  }

  hooks(): HooksConfig {
    return pluginHooks(this.active);
  }

  agents(): AgentDefinition[] {
    return pluginAgents(this.active);
  }

  /** Stops the language servers; call when the session ends. */
  async close(): Promise<void> {
    await Promise.all(this.#stopping);
    await this.lsp.stopAll();
  }

  #switch(name: string, enabled: boolean): readonly PluginStatus[] {
    const known = discoverPlugins({ ...this.#options }).some((status) => status.name === name);
    if (!known) throw new Error(`no plugin named ${name} is installed (see toolrt plugin list)`);
    setEnabled(this.#options.stateDir, this.#options.cwd, name, enabled);
    return this.reload();
  }
}

function settingsSpecs(servers: Record<string, LspServerConfig> | undefined): LspServerSpec[] {
  return Object.entries(servers ?? {}).map(([name, config]) => ({ name, owner: "settings", config }));
}
