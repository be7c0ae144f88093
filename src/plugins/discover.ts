/**
 * Finds the plugins of a workspace and decides each one's state: enabled, disabled, blocked by the
 * managed allow-list, broken, or shadowed (a project plugin of the same name takes precedence).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { enabledIn } from "./enablement.ts";
import { type LoadedPlugin, loadPlugin, type PluginScope } from "./load.ts";
import { projectPluginDir, userPluginDir } from "./locations.ts";
import type { PluginProblem } from "./manifest.ts";

export type PluginState = "enabled" | "disabled" | "blocked" | "broken" | "shadowed";

export interface PluginStatus {
  name: string;
  scope: PluginScope;
  root: string;
  state: PluginState;
  /** Why it is not enabled, in words. */
  reason?: string;
  /** Present unless broken. */
  plugin?: LoadedPlugin;
  problems: PluginProblem[];
}

export interface DiscoverOptions {
  cwd: string;
  stateDir: string;
  env?: NodeJS.ProcessEnv;
  /** The managed allow-list: when given, a plugin not named in it never runs. */
  allowedPlugins?: readonly string[];
}

function pluginDirs(parent: string): string[] {
  if (!existsSync(parent)) return [];
  return readdirSync(parent).sort().map((entry) => join(parent, entry)).filter((path) => {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  });
}

export function discoverPlugins(options: DiscoverOptions): PluginStatus[] {
  const enabled = enabledIn(options.stateDir, options.cwd);
  const allowed = options.allowedPlugins && new Set(options.allowedPlugins);
  const statuses: PluginStatus[] = [];
  const taken = new Set<string>();
  const scopes: [PluginScope, string][] = [
    ["project", projectPluginDir(options.cwd)],
    ["user", userPluginDir(options.env)],
  ];
  for (const [scope, parent] of scopes) {
    for (const root of pluginDirs(parent)) {
      const load = loadPlugin(root, scope);
      const name = load.ok ? load.plugin.name : load.name ?? basename(root);
      const base = { name, scope, root };
      if (!load.ok) {
        statuses.push({
          ...base,
          state: "broken",
          reason: "the manifest has problems",
          problems: load.problems,
        });
        continue;
      }
      const plugin = load.plugin;
      const decided = taken.has(name)
        ? { state: "shadowed" as const, reason: `a project plugin named ${name} takes precedence` }
        : allowed && !allowed.has(name)
        ? { state: "blocked" as const, reason: "not in the managed allow-list of plugins" }
        : enabled.get(name)
        ? { state: "enabled" as const }
        : {
          state: "disabled" as const,
          reason: `not enabled in this workspace (toolrt plugin enable ${name})`,
        };
      taken.add(name);
      statuses.push({ ...base, ...decided, plugin, problems: [] });
    }
  }
  return statuses;
}
