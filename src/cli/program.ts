/**
 * The shell of toolrt's command line, shared by the full CLI (main.ts) and the lean entries of the
 * compiled binary (entry.ts): global options, `--version`, and errors mapped to exit codes
 * (2: usage or broken config, 1: failure). Subcommands come in as `register(program)` functions.
 */
import { Command, CommanderError } from "commander";
import packageJson from "../../package.json" with { type: "json" };
import { reportFailure } from "./errors.ts";
import { addGlobalOptions } from "./globals.ts";

export type Register = (program: Command) => void;

export function newProgram(registers: readonly Register[]): Command {
  const program = new Command("toolrt")
    .description(
      "The tool runtime of coding agents: which tools exist, which the model sees, what it may call.",
    )
    .version(packageJson.version, "-v, --version")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  addGlobalOptions(program);
  for (const register of registers) register(program);
  for (const command of program.commands) command.exitOverride();
  return program;
}

export async function runProgram(program: Command, argv: string[]): Promise<number> {
  try {
    await program.parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" to commander; they already printed what they had to.
      return error.exitCode === 0 ? 0 : 2;
    }
    return reportFailure(error, argv);
  }
}
