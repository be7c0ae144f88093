/**
 * `toolrt hook [--host H]`: the hook adapter for coding agents (stdin: the host's event JSON;
 * stdout: its answer). `toolrt hook install|uninstall [--host H] [--project|--user|--local]`
 * writes or removes the entries that run it. The compiled binary runs a plain `toolrt hook`
 * without loading this command line at all (src/cli/entry.ts).
 */
import { type Command, Option } from "commander";
import { hookCommand, isHookCommand } from "../hook/command.ts";
import { installHooks, type InstallResult, runsCommand, uninstallHooks } from "../hook/install.ts";
import { installTarget, type Scope } from "../hook/install-targets.ts";
import { PROTOCOLS } from "../hook/hosts/index.ts";
import { runHookProcess } from "../hook/process.ts";
import { type HostName, HOSTS } from "../hook/types.ts";
import { UsageError } from "./errors.ts";
import { globalsOf } from "./globals.ts";
import { errorMessage } from "../tool/errors.ts";

interface InstallOptions {
  project?: boolean;
  user?: boolean;
  local?: boolean;
  command?: string;
}

export function register(program: Command): void {
  const hook = program
    .command("hook")
    .description("decide a coding agent's tool call from its hook event on stdin (PreToolUse and the like)")
    .addOption(
      new Option("--host <host>", "the agent whose hook protocol to speak").choices(HOSTS).default(
        "claude-code",
      ),
    )
    .option(
      "--sandbox",
      "shell commands it would leave to the host's prompt are allowed, rewritten to run under toolrt sandbox",
    )
    .action(async (opts: { host: HostName; sandbox?: boolean }, command: Command) => {
      process.exitCode = await runHookProcess(
        { host: opts.host, sandbox: opts.sandbox === true },
        globalsOf(command),
      );
    });
  for (const [name, apply] of [["install", installHooks], ["uninstall", uninstallHooks]] as const) {
    hook
      .command(name)
      .description(`${name === "install" ? "add" : "remove"} toolrt's hook entries in the host's settings`)
      .option("--project", "the workspace's settings (default)")
      .option("--user", "the user's settings")
      .option("--local", "Claude Code only: .claude/settings.local.json")
      .option("--command <command>", "the command the host runs (default: this toolrt)")
      .action((opts: InstallOptions, command: Command) => {
        // --host and --sandbox belong to `hook`, which commander also reads after the subcommand's name.
        const { host, sandbox } = command.optsWithGlobals() as { host: HostName; sandbox?: boolean };
        if (sandbox && !PROTOCOLS[host].replacesInput) {
          throw new UsageError(
            `--sandbox needs a host whose hook can change the command; ${host}'s cannot (src/hook/README.md)`,
          );
        }
        const ours = opts.command ?? hookCommand(host, process.execPath, sandbox === true);
        let result: InstallResult;
        try {
          const target = installTarget(host, scopeOf(opts), ours, {
            cwd: globalsOf(command).cwd,
            env: process.env,
          });
          result = apply(target, (entry) => runsCommand(entry, (c) => isHookCommand(c, ours)));
        } catch (error) {
          throw new UsageError(errorMessage(error));
        }
        const verb = name === "install" ? "installed in" : "removed from";
        console.log(
          result.removed
            ? `toolrt hook removed: ${result.file} held nothing else and was deleted`
            : result.changed
            ? `toolrt hook ${verb} ${result.file}${result.backup ? ` (previous file: ${result.backup})` : ""}`
            : `${result.file} already ${
              name === "install" ? "runs" : "does not run"
            } toolrt hook; nothing changed`,
        );
      });
  }
}

function scopeOf(opts: InstallOptions): Scope {
  const chosen = (["project", "user", "local"] as const).filter((scope) => opts[scope]);
  if (chosen.length > 1) {
    throw new UsageError(`choose one of --project, --user, --local (got ${chosen.join(", ")})`);
  }
  return chosen[0] ?? "project";
}
