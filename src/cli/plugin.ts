/**
 * `toolrt plugin list|install|enable|disable|validate`: the plugins of a workspace, their state, and
 * what each brings. Broken manifests are listed with file and field, never fatal for the others.
 */
import type { Command } from "commander";
import { type PluginStatus } from "../plugins/discover.ts";
import { setEnabled } from "../plugins/enablement.ts";
import { installPlugin } from "../plugins/install.ts";
import { loadPlugin } from "../plugins/load.ts";
import { projectPluginDir, userPluginDir } from "../plugins/locations.ts";
import type { PluginProblem } from "../plugins/manifest.ts";
import { ConfigError, UsageError } from "./errors.ts";
import { globalsOf } from "./globals.ts";
import { type GlobalOptions } from "./options.ts";
import { loadForCli, openDefaultSession, openPlugins } from "./runtime.ts";

export function register(program: Command): void {
  const plugin = program.command("plugin").description("list, install, enable, disable and validate plugins");

  plugin.command("list")
    .description("the plugins of this workspace and their state")
    .option("--json", "machine-readable output")
    .action(async (opts: { json?: boolean }, command: Command) => {
      const { pool, runtime, close } = await openDefaultSession(globalsOf(command), "cli");
      await close();
      const plugins = runtime.plugins;
      const clashes = pool.current.clashes.filter((c) => c.dropped.kind === "plugin");
      if (opts.json) {
        console.log(JSON.stringify(plugins.statuses.map(describeStatus), null, 2));
        return;
      }
      if (plugins.statuses.length === 0) console.log("no plugins installed");
      for (const status of plugins.statuses) for (const line of statusLines(status)) console.log(line);
      for (const clash of clashes) {
        console.log(
          `clash: ${clash.name} from plugin ${clash.dropped.server} dropped; the built-in keeps the name`,
        );
      }
      for (const problem of plugins.skillProblems) console.log(`skill skipped: ${problemLine(problem)}`);
    });

  plugin.command("install <path>")
    .description("copy a plugin directory into the user plugin dir (or the workspace's) and enable it here")
    .option("--project", "install into this workspace's .toolrt/plugins")
    .option("--force", "replace an installed plugin of the same name")
    .action(async (path: string, opts: { project?: boolean; force?: boolean }, command: Command) => {
      const globals = globalsOf(command);
      const dir = opts.project ? projectPluginDir(globals.cwd) : userPluginDir();
      const outcome = installPlugin(path, dir, opts.project ? "project" : "user", opts.force);
      if (!outcome.ok) throw new ConfigError(problemsText(outcome.problems));
      setEnabled(globals.stateDir, globals.cwd, outcome.plugin.name, true);
      const { plugins } = openPlugins(globals, loadForCli(globals));
      await plugins.close();
      const status = plugins.statuses.find((s) => s.root === outcome.target);
      console.log(
        `${
          outcome.replaced ? "replaced" : "installed"
        } ${outcome.plugin.name} ${outcome.plugin.version} in ${outcome.target}`,
      );
      console.log(`state in ${globals.cwd}: ${status ? stateText(status) : "enabled"}`);
    });

  for (const enabled of [true, false]) {
    plugin.command(`${enabled ? "enable" : "disable"} <name>`)
      .description(`${enabled ? "enable" : "disable"} a plugin in this workspace`)
      .action(async (name: string, _opts: unknown, command: Command) => {
        const globals = globalsOf(command);
        const { plugins } = openPlugins(globals, loadForCli(globals));
        let statuses: readonly PluginStatus[];
        try {
          statuses = enabled ? plugins.enable(name) : plugins.disable(name);
        } catch (error) {
          throw new UsageError((error as Error).message);
        } finally {
          await plugins.close();
        }
        for (const status of statuses.filter((s) => s.name === name)) {
          console.log(`${name} (${status.scope}): ${stateText(status)}`);
        }
      });
  }

  plugin.command("validate [path]")
    .description("check a plugin directory, or every installed plugin; exit 2 when any is broken")
    .option("--json", "machine-readable output")
    .action(async (path: string | undefined, opts: { json?: boolean }, command: Command) => {
      const results = path ? [validateOne(path)] : await installedResults(globalsOf(command));
      if (opts.json) console.log(JSON.stringify(results, null, 2));
      else {
        for (const result of results) {
          console.log(`${result.problems.length ? "broken" : "ok"}: ${result.name} (${result.root})`);
          for (const problem of result.problems) console.log(`  ${problemLine(problem)}`);
          for (const warning of result.warnings) console.log(`  warning: ${warning}`);
        }
      }
      if (results.some((r) => r.problems.length)) process.exitCode = 2;
    });
}

async function installedResults(globals: GlobalOptions) {
  const { plugins } = openPlugins(globals, loadForCli(globals));
  await plugins.close();
  return plugins.statuses.map((s) => ({
    name: s.name,
    root: s.root,
    problems: s.problems,
    warnings: s.plugin?.warnings ?? [],
  }));
}

function validateOne(path: string) {
  const load = loadPlugin(path, "user");
  return load.ok
    ? { name: load.plugin.name, root: load.plugin.root, problems: [], warnings: load.plugin.warnings }
    : { name: load.name ?? path, root: load.root, problems: load.problems, warnings: [] };
}

function describeStatus(status: PluginStatus) {
  const plugin = status.plugin;
  return {
    name: status.name,
    version: plugin?.version ?? null,
    scope: status.scope,
    state: status.state,
    ...(status.reason ? { reason: status.reason } : {}),
    root: status.root,
    lspServers: Object.keys(plugin?.lspServers ?? {}),
    mcpServers: Object.keys(plugin?.mcpServers ?? {}),
    hooks: Object.keys(plugin?.hooks ?? {}),
    agents: (plugin?.agents ?? []).map((agent) => agent.name),
    skills: (plugin?.skills ?? []).map((skill) => skill.name),
    problems: status.problems,
    warnings: plugin?.warnings ?? [],
  };
}

function statusLines(status: PluginStatus): string[] {
  const d = describeStatus(status);
  const parts = [
    d.lspServers.length ? `lsp: ${d.lspServers.join(", ")}` : "",
    d.mcpServers.length ? `mcp: ${d.mcpServers.join(", ")}` : "",
    d.hooks.length ? `hooks: ${d.hooks.join(", ")}` : "",
    d.agents.length ? `agents: ${d.agents.join(", ")}` : "",
    d.skills.length ? `skills: ${d.skills.join(", ")}` : "",
  ].filter(Boolean);
  const head = `${d.name}${d.version ? ` ${d.version}` : ""} (${d.scope}) ${stateText(status)}`;
  return [
    head,
    ...(parts.length ? [`  ${parts.join("; ")}`] : []),
    ...status.problems.map((p) => `  ${problemLine(p)}`),
    ...d.warnings.map((w) => `  warning: ${w}`),
  ];
}

function stateText(status: PluginStatus): string {
  return status.reason ? `${status.state}: ${status.reason}` : status.state;
}

function problemLine(problem: PluginProblem): string {
  return `${problem.file}: ${problem.field}: ${problem.message}`;
}

function problemsText(problems: readonly PluginProblem[]): string {
  return `the plugin cannot be installed:\n${problems.map((p) => `  ${problemLine(p)}`).join("\n")}`;
}
