#!/usr/bin/env bun
/**
 * toolrt's command line. Each subcommand lives in its own file exporting `register(program)`;
 * this file only wires them and maps errors to exit codes (2: usage or broken config, 1: failure).
 */
import { Command, CommanderError } from "commander";
import packageJson from "../../package.json" with { type: "json" };
import { exitCodeFor } from "./errors.ts";
import { addGlobalOptions } from "./globals.ts";
import { register as registerAgent } from "./agent.ts";
import { register as registerAnalyze } from "./analyze.ts";
import { register as registerAudit } from "./audit.ts";
import { register as registerCheck } from "./check.ts";
import { register as registerHook } from "./hook.ts";
import { register as registerMcp } from "./mcp.ts";
import { register as registerPlugin } from "./plugin.ts";
import { register as registerPolicy } from "./policy.ts";
import { register as registerRender } from "./render.ts";
import { register as registerRun } from "./run.ts";
import { register as registerSandbox } from "./sandbox.ts";
import { register as registerSearch } from "./search.ts";
import { register as registerServe } from "./serve.ts";
import { register as registerTools } from "./tools.ts";
import { register as registerTrust } from "./trust.ts";

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
  const commands = [
    registerTools,
    registerSearch,
    registerRun,
    registerAudit,
    registerSandbox,
    registerCheck,
    registerPolicy,
    registerTrust,
    registerServe,
    registerMcp,
    registerAgent,
    registerRender,
    registerPlugin,
    registerAnalyze,
    registerHook,
  ];
  for (const register of commands) register(program);
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
