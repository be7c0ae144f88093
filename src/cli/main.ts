#!/usr/bin/env bun
/**
 * toolrt's command line. Each subcommand lives in its own file exporting `register(program)`;
 * this file only wires them (program.ts maps errors to exit codes).
 */
import type { Command } from "commander";
import { EXIT_DEADLINE_MS, flushTelemetry } from "../telemetry/registry.ts";
import { newProgram, runProgram } from "./program.ts";

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
  doctor: () => import("./doctor.ts"),
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

async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const word = commandWordOf(argv);
  const onlyVersion = word === undefined && argv.some((a) => a === "-v" || a === "--version");
  const names = word !== undefined && word in COMMANDS ? [word] : onlyVersion ? [] : Object.keys(COMMANDS);
  const modules = await Promise.all(names.map((name) => COMMANDS[name]!()));
  return newProgram(modules.map((module) => module.register));
}

export async function main(argv: string[]): Promise<number> {
  const code = await runProgram(await buildProgram(argv), argv);
  // Telemetry the command recorded goes out now, or is kept for a later process (free when off).
  await flushTelemetry(EXIT_DEADLINE_MS, { adoptSpool: true });
  return code;
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
