#!/usr/bin/env bun
/**
 * toolrt's command line. Each subcommand lives in its own file exporting `register(program)`;
 * this file only wires them and maps errors to exit codes (2: usage or broken config, 1: failure).
 */
import { Command, CommanderError } from "commander";
import packageJson from "../../package.json" with { type: "json" };
import { exitCodeFor } from "./errors.ts";
import { addGlobalOptions } from "./globals.ts";
type CommandModule = { register(program: Command): void };

/**
 * Each subcommand's module, in the order help lists them. Only the module of the command being run
 * is loaded (a CLI starts per call, and some commands bring large dependencies); help, a bare
 * `toolrt` and an unknown command load them all.
 */
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  tools: () => import("./tools.ts"),
  search: () => import("./search.ts"),
  run: () => import("./run.ts"),
  audit: () => import("./audit.ts"),
  sandbox: () => import("./sandbox.ts"),
  check: () => import("./check.ts"),
  policy: () => import("./policy.ts"),
  trust: () => import("./trust.ts"),
  serve: () => import("./serve.ts"),
  mcp: () => import("./mcp.ts"),
  agent: () => import("./agent.ts"),
  render: () => import("./render.ts"),
  plugin: () => import("./plugin.ts"),
  analyze: () => import("./analyze.ts"),
  hook: () => import("./hook.ts"),
};

/** Global options that take a value: the word after them is not the command. */
const VALUE_OPTIONS = new Set([
  "--cwd",
  "--state-dir",
  "--policy",
  "--allow",
  "--ask",
  "--deny",
  "--mode",
  "--mcp-config",
]);

/** The command word of an argument list, if any (global options may come first). */
export function commandWordOf(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--") return undefined;
    if (!word.startsWith("-")) return word;
    if (VALUE_OPTIONS.has(word)) i++;
  }
  return undefined;
}

export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command("toolrt")
    .description(
      "The tool runtime of coding agents: which tools exist, which the model sees, what it may call.",
    )
    .version(packageJson.version, "-v, --version")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  addGlobalOptions(program);
  const word = commandWordOf(argv);
  const onlyVersion = word === undefined && argv.some((a) => a === "-v" || a === "--version");
  const names = word !== undefined && word in COMMANDS ? [word] : onlyVersion ? [] : Object.keys(COMMANDS);
  const modules = await Promise.all(names.map((name) => COMMANDS[name]!()));
  for (const module of modules) module.register(program);
  for (const command of program.commands) command.exitOverride();
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = await buildProgram(argv);
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
