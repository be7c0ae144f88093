#!/usr/bin/env bun
/**
 * toolrt's command line. Each subcommand lives in its own file exporting `register(program)`;
 * this file only wires them and maps errors to exit codes (2: usage or broken config, 1: failure).
 */
import { Command, CommanderError } from "commander";
import packageJson from "../../package.json" with { type: "json" };
import { exitCodeFor } from "./errors.ts";
import { addGlobalOptions } from "./globals.ts";
import { register as registerAnalyze } from "./analyze.ts";
import { register as registerAudit } from "./audit.ts";
import { register as registerRun } from "./run.ts";
import { register as registerTools } from "./tools.ts";

export function buildProgram(): Command {
  const program = new Command("toolrt")
    .description(
      "The tool runtime of coding agents: which tools exist, which the model sees, what it may call.",
    )
    .version(packageJson.version, "-v, --version")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  addGlobalOptions(program);
  for (const register of [registerTools, registerRun, registerAudit, registerAnalyze]) register(program);
  for (const command of program.commands) command.exitOverride();
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" to commander; they already printed what they had to.
      return error.exitCode === 0 ? 0 : 2;
    }
    const debug = argv.includes("--debug");
    process.stderr.write(`toolrt: ${debug && error instanceof Error ? error.stack : errorMessage(error)}\n`);
    return exitCodeFor(error);
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
