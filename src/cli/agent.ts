/**
 * `toolrt agent [--json|--output-format stream-json] [--max-turns N] [--model M] '<prompt>'`:
 * the agent loop on ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY with this pool, pipeline and policy.
 * Ctrl-C interrupts the running turn; a second Ctrl-C quits at once.
 */
import Anthropic from "@anthropic-ai/sdk";
import { type Command, Option } from "commander";
import { agentDirs, loadAgentDefinitions } from "../agent/definitions.ts";
import { startAgent } from "../agent/start.ts";
import type { StreamJsonLine } from "../agent/stream-json.ts";
import { getAllBaseTools } from "../pool/base-tools.ts";
import { liveRenderer } from "../render/live.ts";
import { ConfigError, UsageError } from "./errors.ts";
import { globalsOf } from "./globals.ts";
import { askOnTerminal, askSandboxOnTerminal } from "./run.ts";
import { openRuntime } from "./runtime.ts";

const DEFAULT_MODEL = "claude-sonnet-5-5";

interface AgentFlags {
  json?: boolean;
  outputFormat: "text" | "json" | "stream-json";
  maxTurns?: number;
  model?: string;
  verbose?: boolean;
}

export function register(program: Command): void {
  program
    .command("agent")
    .description("run an agent on the Anthropic Messages API (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY)")
    .argument("<prompt>", "the task")
    .option("--json", "print only the final result object (same as --output-format json)")
    .addOption(
      new Option(
        "--output-format <format>",
        "text for people, json for the result, stream-json for every event",
      )
        .choices(["text", "json", "stream-json"]).default("text"),
    )
    .option("--max-turns <n>", "stop after this many model requests", positiveInteger)
    .option("--model <model>", `model id (default: $ANTHROPIC_MODEL or ${DEFAULT_MODEL})`)
    .option("--verbose", "show whole tool results")
    .action(async (prompt: string, flags: AgentFlags, command: Command) => {
      const globals = globalsOf(command);
      if (!process.env.ANTHROPIC_API_KEY && !process.env.ANTHROPIC_AUTH_TOKEN) {
        throw new ConfigError(
          "no API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), and ANTHROPIC_BASE_URL for a gateway",
        );
      }
      const format = flags.json ? "json" : flags.outputFormat;
      const interactive = process.stdin.isTTY && format === "text";
      const runtime = await openRuntime(globals, interactive ? { sandboxAsker: askSandboxOnTerminal } : {});
      const { definitions, problems } = loadAgentDefinitions(agentDirs(globals.cwd));
      for (const problem of problems) process.stderr.write(`toolrt: skipped agent definition ${problem}\n`);

      const emit = outputFor(format, globals.color, flags.verbose === true);
      const interrupt = new AbortController();
      const onSigint = () => {
        if (interrupt.signal.aborted) process.exit(130);
        process.stderr.write("\nInterrupting… (Ctrl-C again to quit now)\n");
        interrupt.abort();
      };
      process.on("SIGINT", onSigint);
      try {
        const result = await startAgent({
          client: new Anthropic({ maxRetries: 0 }),
          model: flags.model ?? process.env.ANTHROPIC_MODEL ?? DEFAULT_MODEL,
          prompt,
          // The runtime's built-ins: their shell tools run in its sandbox.
          baseTools: runtime.baseTools,
          // Each agent's pool gets its own ToolSearch, answering with tool_reference blocks.
          makePool: (tools) => runtime.makePool(tools, { searchResultStyle: "tool_reference" }).pool,
          openSession: (pool, agent) => runtime.openSession(pool, "provider", agent),
          definitions,
          stateDir: globals.stateDir,
          emit,
          ask: interactive ? askOnTerminal : undefined,
          signal: interrupt.signal,
          maxTurns: flags.maxTurns,
        });
        if (format === "json") console.log(JSON.stringify(result, null, 2));
        if (result.terminal_reason === "api_error") process.stderr.write(`toolrt: ${result.result}\n`);
        process.exitCode = result.is_error ? 1 : 0;
      } finally {
        process.off("SIGINT", onSigint);
        await runtime.close();
      }
    });
}

function outputFor(format: AgentFlags["outputFormat"], color: boolean, verbose: boolean) {
  if (format === "stream-json") {
    return (line: StreamJsonLine) => process.stdout.write(`${JSON.stringify(line)}\n`);
  }
  if (format === "json") return () => {};
  return liveRenderer(
    { tools: getAllBaseTools(), color, verbose, columns: process.stdout.columns || 100 },
    (text) => process.stdout.write(text),
  );
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new UsageError(`--max-turns takes a positive whole number, not ${value}`);
  }
  return n;
}
