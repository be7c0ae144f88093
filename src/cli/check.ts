/**
 * `toolrt check [--json] [--batch FILE] TOOL [INPUT]`: the permission decision for a call, through
 * every policy source, without running it. The same `buildRequest` + `decide` as real execution.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { analyzeBashSync } from "../bash/analyze.ts";
import { loadBashParser } from "../bash/parser.ts";
import type { BashAnalysis } from "../bash/types.ts";
import { getAllBaseTools } from "../pool/base-tools.ts";
import { decide } from "../policy/decide.ts";
import { decisionJson, decisionLines } from "../policy/explain.ts";
import type { LoadResult } from "../policy/load.ts";
import type { Policy } from "../policy/policy.ts";
import { buildRequest, factsFromTool } from "../policy/request.ts";
import type { Decision, ToolFacts } from "../policy/types.ts";
import type { ToolContext } from "../tool/types.ts";
import { UsageError } from "./errors.ts";
import { type GlobalOptions, globalsOf, permissionModeOf } from "./globals.ts";
import { loadForCli } from "./runtime.ts";

export interface CheckDeps {
  /** The Bash analyzer; without one a command is judged as one sub-command with no checks. */
  analyzeBash?: (command: string) => BashAnalysis;
}

/** The real analyzer. Its parser loads once per process (`withBashParser`), so analysis is synchronous. */
export const analyzerDeps: CheckDeps = { analyzeBash: analyzeBashSync };

/** Loads the Bash parser before synchronous analysis; a failed load leaves the fail-closed fallback. */
export async function withBashParser(): Promise<void> {
  await loadBashParser();
}

interface CheckOptions {
  json?: boolean;
  batch?: string;
  batchFormat?: "lines" | "json-lines";
}

export function register(program: Command, deps: CheckDeps = analyzerDeps): void {
  program
    .command("check")
    .description("the permission decision for one call (or a batch of Bash commands), without running it")
    .argument("<tool>", "tool name, e.g. Bash, Read, mcp__github__create_issue")
    .argument("[input]", "for Bash the command string; otherwise a JSON object")
    .option("--json", "machine-readable output")
    .option("--batch <file>", "Bash only: one command per line (- for stdin), one JSON object per line out")
    .option("--batch-format <format>", "lines (default) or json-lines (each line a JSON string)", "lines")
    .action(async (tool: string, input: string | undefined, opts: CheckOptions, command: Command) => {
      const globals = globalsOf(command);
      const loaded = loadForCli(globals);
      if (tool === "Bash") await withBashParser();
      if (opts.batch !== undefined) {
        if (tool !== "Bash") throw new UsageError(`--batch checks Bash commands only; got tool ${tool}`);
        for (
          const line of checkBatch(readInput(opts.batch), opts.batchFormat ?? "lines", loaded, globals, deps)
        ) {
          process.stdout.write(`${line}\n`);
        }
        return;
      }
      if (input === undefined && tool === "Bash") throw new UsageError("check Bash needs the command string");
      const decision = await checkCall(tool, parseInput(tool, input), loaded.policy, globals, deps);
      decision.warnings.push(...loaded.warnings);
      if (opts.json) {
        console.log(JSON.stringify(decisionJson(decision), null, 2));
        return;
      }
      for (const line of decisionLines(decision, subjectOf(tool, input))) console.log(line);
    });
}

/** The decision for one call, with the facts the tool itself gives when it is a known built-in. */
export async function checkCall(
  tool: string,
  input: unknown,
  policy: Policy,
  globals: GlobalOptions,
  deps: CheckDeps,
): Promise<Decision> {
  if (tool === "Bash") return decideBash((input as { command: string }).command, policy, globals, deps);
  const call = { tool, input, cwd: globals.cwd, mode: permissionModeOf(globals.mode) };
  return decide(buildRequest(call, await builtinFacts(tool, input, globals)), policy);
}

function decideBash(command: string, policy: Policy, globals: GlobalOptions, deps: CheckDeps): Decision {
  const bash = deps.analyzeBash?.(command);
  const mode = permissionModeOf(globals.mode);
  return decide(
    buildRequest({ tool: "Bash", input: { command }, cwd: globals.cwd, mode, ...(bash ? { bash } : {}) }),
    policy,
  );
}

async function builtinFacts(name: string, input: unknown, globals: GlobalOptions): Promise<ToolFacts> {
  const tool = getAllBaseTools().find((t) => t.name === name || t.aliases.includes(name));
  if (!tool) return {};
  const ctx: ToolContext = {
    cwd: globals.cwd,
    additionalDirs: [],
    stateDir: globals.stateDir,
    mode: permissionModeOf(globals.mode),
    invokedBy: "cli",
    abortSignal: new AbortController().signal,
    session: { readFiles: new Map(), todos: [] },
    agent: { depth: 0 },
  };
  return factsFromTool(tool, input, ctx);
}

/** One JSON line per input line, in order; a line that cannot be checked yields `{error}`. */
export function checkBatch(
  text: string,
  format: string,
  loaded: LoadResult,
  globals: GlobalOptions,
  deps: CheckDeps,
): string[] {
  if (format !== "lines" && format !== "json-lines") {
    throw new UsageError(`--batch-format must be lines or json-lines, not ${JSON.stringify(format)}`);
  }
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line, i) => {
    const command = format === "json-lines" ? jsonString(line) : { value: line.replace(/\r$/, "") };
    if ("error" in command) return JSON.stringify({ line: i + 1, error: command.error });
    if (command.value.trim() === "") return JSON.stringify({ line: i + 1, error: "empty command" });
    const decision = decideBash(command.value, loaded.policy, globals, deps);
    return JSON.stringify({ command: command.value, ...decisionJson(decision) });
  });
}

function jsonString(line: string): { value: string } | { error: string } {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "string" ? { value } : { error: "expected a JSON string literal" };
  } catch {
    return { error: "not valid JSON; expected a JSON string literal" };
  }
}

function parseInput(tool: string, input: string | undefined): unknown {
  if (tool === "Bash") return { command: input };
  if (input === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch {
    throw new UsageError(`INPUT for ${tool} must be a JSON object, e.g. '{"file_path":"src/a.ts"}'`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError(`INPUT for ${tool} must be a JSON object, not ${JSON.stringify(value)}`);
  }
  return value;
}

function subjectOf(tool: string, input: string | undefined): string {
  return input === undefined ? tool : `${tool}(${input})`;
}

function readInput(file: string): string {
  return readFileSync(file === "-" ? 0 : file, "utf8");
}
