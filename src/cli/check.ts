/**
 * `toolrt check [--json] [--batch FILE] TOOL [INPUT]`: the permission decision for a call, through
 * every policy source, without running it. The same `buildRequest` + `decide` as real execution.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { decisionJson, decisionLines } from "../policy/explain.ts";
import { commandPlaces, type ExecutionPlace } from "../exec/processes/sandbox-context.ts";
import type { LoadResult } from "../policy/load.ts";
import { DEFAULT_SANDBOX_POLICY } from "../policy/sandbox-policy.ts";
import { UsageError } from "./errors.ts";
import { analyzerDeps, checkCall, type CheckDeps, decideBash, withBashParser } from "./check-call.ts";
import { globalsOf } from "./globals.ts";
import { type GlobalOptions, permissionModeOf } from "./options.ts";
import { openCliTelemetry } from "./telemetry.ts";
import { checkedDecision, policyDigestsOf } from "../audit/decision.ts";
import type { Decision } from "../policy/types.ts";
import { loadForCli } from "./runtime.ts";

interface CheckOptions {
  json?: boolean;
  sandboxed?: boolean;
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
    .option("--sandboxed", "decide for a shell call that runs in toolrt's sandbox (as the Bash tool's do)")
    .option("--batch <file>", "Bash only: one command per line (- for stdin), one JSON object per line out")
    .option("--batch-format <format>", "lines (default) or json-lines (each line a JSON string)", "lines")
    .action(async (tool: string, input: string | undefined, opts: CheckOptions, command: Command) => {
      const globals = globalsOf(command);
      const loaded = loadForCli(globals);
      const [telemetry] = await Promise.all([
        openCliTelemetry(globals, loaded.policy.state),
        tool === "Bash" ? withBashParser() : undefined,
      ]);
      const context = {
        mode: permissionModeOf(globals.mode),
        cwd: globals.cwd,
        policyDigest: policyDigestsOf(loaded.policy.state).digest,
      };
      const record = telemetry &&
        ((tool: string, input: unknown, decision: Decision) =>
          telemetry.record(checkedDecision(tool, input, decision, context)));
      const placeOf = opts.sandboxed && tool === "Bash" ? sandboxPlaces(loaded, globals) : undefined;
      if (opts.batch !== undefined) {
        if (tool !== "Bash") throw new UsageError(`--batch checks Bash commands only; got tool ${tool}`);
        const text = readInput(opts.batch);
        const format = opts.batchFormat ?? "lines";
        for await (const line of checkBatch(text, format, loaded, globals, deps, placeOf, record)) {
          process.stdout.write(`${line}\n`);
        }
        return;
      }
      if (input === undefined && tool === "Bash") throw new UsageError("check Bash needs the command string");
      const parsed = parseInput(tool, input);
      const decision = await checkCall(tool, parsed, loaded.policy, globals, deps, placeOf);
      record?.(tool, parsed, decision);
      if (opts.sandboxed && tool !== "Bash") {
        decision.warnings.push(`not sandboxed: only shell commands run in the sandbox, not ${tool} calls`);
      }
      decision.warnings.push(...loaded.warnings);
      if (opts.json) {
        console.log(JSON.stringify(decisionJson(decision), null, 2));
        return;
      }
      for (const line of decisionLines(decision, subjectOf(tool, input))) console.log(line);
    });
}

/** Lines between yields to the event loop while telemetry is on, so its batches go out as they fill. */
const TELEMETRY_YIELD_EVERY = 256;

/** One JSON line per input line, in order; a line that cannot be checked yields `{error}`. */
async function* checkBatch(
  text: string,
  format: string,
  loaded: LoadResult,
  globals: GlobalOptions,
  deps: CheckDeps,
  placeOf: ((command: string) => ExecutionPlace) | undefined,
  record: ((tool: string, input: unknown, decision: Decision) => void) | undefined,
): AsyncGenerator<string> {
  if (format !== "lines" && format !== "json-lines") {
    throw new UsageError(`--batch-format must be lines or json-lines, not ${JSON.stringify(format)}`);
  }
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const [i, line] of lines.entries()) {
    if (record && i > 0 && i % TELEMETRY_YIELD_EVERY === 0) await Bun.sleep(0);
    const command = format === "json-lines" ? jsonString(line) : { value: line.replace(/\r$/, "") };
    if ("error" in command) {
      yield JSON.stringify({ line: i + 1, error: command.error });
    } else if (command.value.trim() === "") {
      yield JSON.stringify({ line: i + 1, error: "empty command" });
    } else {
      const decision = decideBash(command.value, loaded.policy, globals, deps, placeOf);
      record?.("Bash", { command: command.value }, decision);
      yield JSON.stringify({ command: command.value, ...decisionJson(decision) });
    }
  }
}

/** Where `check --sandboxed` runs each command: the workspace's sandbox, as `toolrt run` would. */
function sandboxPlaces(loaded: LoadResult, globals: GlobalOptions): (command: string) => ExecutionPlace {
  return commandPlaces(loaded.policy.state.sandbox ?? DEFAULT_SANDBOX_POLICY, globals.cwd, {
    asksForHosts: false,
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
