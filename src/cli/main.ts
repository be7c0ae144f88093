#!/usr/bin/env bun
/**
 * toolrt's command line. Each subcommand lives in its own file exporting `register(program)`;
 * this file only wires them (program.ts maps errors to exit codes).
 */
import type { Command } from "commander";
import { newProgram, runProgram } from "./program.ts";
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
  return newProgram([
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
  ]);
}

export function main(argv: string[]): Promise<number> {
  return runProgram(buildProgram(), argv);
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
