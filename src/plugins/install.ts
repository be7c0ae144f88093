/** `toolrt plugin install PATH`: checks a plugin directory and copies it into a plugin dir. */
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { type LoadedPlugin, loadPlugin, type PluginScope } from "./load.ts";
import type { PluginProblem } from "./manifest.ts";

export type InstallOutcome =
  | { ok: true; plugin: LoadedPlugin; target: string; replaced: boolean }
  | { ok: false; problems: PluginProblem[] };

/** Installs unless the manifest is broken; an installed plugin of the same name needs `replace`. */
export function installPlugin(
  source: string,
  pluginDir: string,
  scope: PluginScope,
  replace = false,
): InstallOutcome {
  const from = resolve(source);
  if (!existsSync(from)) {
    return { ok: false, problems: [{ file: from, field: "(file)", message: "no such directory" }] };
  }
  const load = loadPlugin(from, scope);
  if (!load.ok) return { ok: false, problems: load.problems };
  const target = join(pluginDir, load.plugin.name);
  const replaced = existsSync(target);
  if (replaced && !replace) {
    return {
      ok: false,
      problems: [{
        file: target,
        field: "name",
        message: `a plugin named ${load.plugin.name} is already installed here; pass --force to replace it`,
      }],
    };
  }
  mkdirSync(pluginDir, { recursive: true });
  if (replaced) rmSync(target, { recursive: true, force: true });
  cpSync(from, target, { recursive: true });
  const installed = loadPlugin(target, scope);
  if (!installed.ok) return { ok: false, problems: installed.problems };
  return { ok: true, plugin: installed.plugin, target, replaced };
}
