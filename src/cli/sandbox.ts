/**
 * `toolrt sandbox [--workspace DIR] [--allow-write PATH]... [--deny-read PATH]... [--allow-net HOST]...
 * [--unset-env PATTERN]... [--allow-localhost] [--allow-unsandboxed] -- CMD [ARGS...]` (or
 * `--print-profile macos|linux` or `--explain` instead of running one), and the hidden in-sandbox helper
 * `toolrt sandbox-bridge --fd N -- CMD...` that carries the network channel, for commander. The
 * options and the run are in sandbox-command.ts, which the compiled binary uses without commander.
 */
import { type Command, Option } from "commander";
import { globalsOf } from "./globals.ts";
import {
  runBridgeCommand,
  runSandboxCommand,
  SANDBOX_OPTIONS,
  type SandboxOptions,
} from "./sandbox-command.ts";

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function register(program: Command): void {
  const sandbox = program
    .command("sandbox")
    .description("run a command in the platform sandbox (read-only system, writable workspace, no network)")
    .usage("[options] -- CMD [ARGS...]  |  --print-profile macos|linux [options]  |  --explain [options]");
  for (const o of SANDBOX_OPTIONS) {
    const option = new Option(`--${o.flag}${o.value ? ` <${o.value}>` : ""}`, o.description);
    sandbox.addOption(o.repeatable ? option.argParser(collect) : option);
  }
  sandbox
    .argument("[command...]", "the command and its arguments (after --)")
    .action(async (argv: string[], opts: SandboxOptions, command: Command) => {
      process.exitCode = await runSandboxCommand(argv, opts, globalsOf(command));
    });
  program
    .command("sandbox-bridge", { hidden: true })
    .requiredOption("--fd <n>", "descriptor of the network channel")
    .argument("<command...>")
    .action((argv: string[], opts: { fd: string }) => runBridgeCommand(Number(opts.fd), argv));
}
