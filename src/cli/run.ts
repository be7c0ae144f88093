/**
 * `toolrt run [--json] [--yes] [--session NAME] TOOL 'JSON-INPUT'`: one call through the whole
 * pipeline. Exit status: 0 the call succeeded; 1 the tool failed or refused it, or permission denied
 * it; 2 bad usage or input (an unknown tool, input that is not JSON or does not fit the tool's schema).
 */
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import { lookupTool } from "../exec/lookup.ts";
import type { SandboxAnswer, SandboxAsker } from "../exec/processes/sandbox-exceptions.ts";
import type { AskAnswer, Asker, AskRequest, CallOutcome } from "../exec/types.ts";
import { progressLine } from "../render/progress-line.ts";
import type { ToolProgress } from "../tool/types.ts";
import { UsageError } from "./errors.ts";
import { globalsOf } from "./globals.ts";
import { openNamedSession } from "./named-session.ts";
import { openDefaultSession } from "./runtime.ts";

export function register(program: Command): void {
  program
    .command("run")
    .description("run one tool call through validation, hooks, permission, the tool, and result shaping")
    .argument("<tool>", "tool name, e.g. Read")
    .argument("[input]", "the input as a JSON object", "{}")
    .option("--json", "machine-readable output")
    .option("--yes", "answer every permission question with allow-once")
    .option(
      "--session <name>",
      "keep the session's state (files read, todos) in the state dir, so Read then Edit works across runs",
    )
    .action(
      async (
        toolName: string,
        inputText: string,
        opts: { json?: boolean; yes?: boolean; session?: string },
        command: Command,
      ) => {
        const globals = globalsOf(command);
        const input = parseInput(inputText);
        const named = opts.session === undefined
          ? undefined
          : openNamedSession(globals.stateDir, opts.session);
        const sandboxAsker = opts.yes ? sandboxOnce : process.stdin.isTTY ? askSandboxOnTerminal : undefined;
        const { session, runtime, close } = await openDefaultSession(
          globals,
          "cli",
          { ...(sandboxAsker ? { sandboxAsker } : {}), ...(named ? { state: named.state } : {}) },
        );
        try {
          const found = lookupTool(session.pool.current, toolName);
          if (!found.ok) {
            // A tool of a configured MCP server that is not connected: a failure, not bad usage.
            const why = runtime.mcp.unavailableReason(toolName);
            if (why) throw new Error(`${toolName} cannot be called now: ${why}`);
            // Kept out of the pool by a deny rule or the mode: a denial (exit 1), not bad usage.
            if (session.pool.current.hidden.some((h) => h.name === toolName)) {
              throw new Error(found.message.replace(/^Error: /, ""));
            }
            throw new UsageError(found.message.replace(/^Error: /, ""));
          }
          const ask = opts.yes ? allowOnce : process.stdin.isTTY ? askOnTerminal : undefined;
          // Ctrl-C interrupts the call (by its interrupt behaviour); the result is still printed.
          const interrupt = new AbortController();
          const onSigint = () => interrupt.abort();
          process.once("SIGINT", onSigint);
          // On a terminal, a status line while it runs; the output itself is printed once, below.
          const progress = !opts.json && process.stderr.isTTY
            ? progressLine(toolName, (text) => process.stderr.write(text), process.stderr.columns)
            : undefined;
          const outcome = await session.execute({ id: newToolUseId(), name: toolName, input }, {
            ask,
            signal: interrupt.signal,
            ...(progress ? { onProgress: (p: ToolProgress) => progress.update(p) } : {}),
          }).finally(() => {
            process.off("SIGINT", onSigint);
            progress?.clear();
          });
          console.log(opts.json ? JSON.stringify(toJson(outcome), null, 2) : humanText(outcome));
          process.exitCode = exitCodeOf(outcome);
          named?.save();
        } finally {
          await close();
        }
      },
    );
}

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `the input is not valid JSON (${
        (error as Error).message
      }); pass an object like '{"file_path":"README.md"}'`,
    );
  }
}

const newToolUseId = () => `toolu_${randomUUID().replace(/-/g, "").slice(0, 24)}`;

const allowOnce: Asker = async () => ({ behavior: "allow-once" });
const sandboxOnce: SandboxAsker = async () => "once";

/** One question at a time on the terminal (the proxy may ask about two hosts at once). */
let terminal: Promise<unknown> = Promise.resolve();

function askTerminal(lines: string[], prompt: string): Promise<string> {
  const asked = terminal.then(async () => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      // A question asked while a call runs replaces its status line.
      process.stderr.write("\r\x1b[K");
      for (const line of lines) process.stderr.write(`${line}\n`);
      return (await rl.question(prompt)).trim().toLowerCase();
    } finally {
      rl.close();
    }
  });
  terminal = asked.catch(() => {});
  return asked;
}

export const askOnTerminal: Asker = async (request: AskRequest): Promise<AskAnswer> => {
  const suggestion = request.suggestions[0];
  const always = suggestion ? `, (a)lways allow ${suggestion}` : "";
  const answer = await askTerminal(
    [
      `${request.toolName} wants to run: ${JSON.stringify(request.input)}`,
      `  ${request.reason}`,
      ...request.warnings.map((warning) => `  warning: ${warning}`),
    ],
    `Allow? (y)es once${always}, (n)o: `,
  );
  if (answer === "y" || answer === "yes") return { behavior: "allow-once" };
  if (suggestion && (answer === "a" || answer === "always")) {
    return { behavior: "allow-always", rule: suggestion };
  }
  return { behavior: "deny", message: "The user denied this call." };
};

/** The sandbox blocked one host or path: allow just that, once, for the session or always. */
export const askSandboxOnTerminal: SandboxAsker = async (question) => {
  const [what, grant] = question.kind === "host"
    ? [`reaching ${question.host}:${question.port}`, `host ${question.host}`]
    : [`writing ${question.blocked}`, `writing ${question.path}`];
  const answer = await askTerminal(
    [`The sandbox blocked ${what} while running: ${question.command}`],
    `Allow ${grant}? (o)nce, for this (s)ession, (a)lways in this workspace, (n)o: `,
  );
  return sandboxAnswerOf(answer);
};

const SANDBOX_ANSWERS: Record<string, SandboxAnswer> = {
  o: "once",
  once: "once",
  s: "session",
  session: "session",
  a: "always",
  always: "always",
};

/** What a person typed, as an answer: anything but once, session or always is no. */
export function sandboxAnswerOf(typed: string): SandboxAnswer {
  return SANDBOX_ANSWERS[typed.trim().toLowerCase()] ?? "no";
}

/** 0 success; 2 a call that could not be made as typed; 1 any other failure, denials included. */
export function exitCodeOf(outcome: CallOutcome): 0 | 1 | 2 {
  if (!outcome.isError) return 0;
  return outcome.failure === "invalid-input" || outcome.failure === "unknown-tool" ? 2 : 1;
}

function toJson(outcome: CallOutcome) {
  return {
    tool_use_id: outcome.toolUseId,
    is_error: outcome.isError,
    content: outcome.content,
    decision: outcome.decision,
    ...(outcome.failure ? { failure: outcome.failure } : {}),
    ...(outcome.structuredContent !== undefined ? { structured_content: outcome.structuredContent } : {}),
    ...(outcome.persistedPath ? { persisted_path: outcome.persistedPath } : {}),
  };
}

function humanText(outcome: CallOutcome): string {
  const text = outcome.content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join("\n");
  const status = !outcome.isError
    ? "ok"
    : outcome.failure === "denied"
    ? "denied"
    : outcome.failure === "invalid-input"
    ? "invalid input"
    : "error";
  return `${text}\n(${outcome.toolName}: ${status}${
    outcome.persistedPath ? `, full output in ${outcome.persistedPath}` : ""
  })`;
}
