/**
 * The Bash tool: runs a command with `bash -c`, bounded output kept whole on disk, timeouts and
 * interruption that stop the whole process group, background tasks, and a move to the background
 * when a foreground command runs past its budget.
 */
import { buildTool } from "../../tool/build-tool.ts";
import type { Tool } from "../../tool/types.ts";
import { formatBytes, formatDuration } from "../../exec/processes/format.ts";
import { bashContentText } from "./content.ts";
import { type ProcessToolOptions, resolveProcessOptions } from "./options.ts";
import promptText from "./prompt.md" with { type: "text" };
import { bashRenderer } from "./render.ts";
import { runBash } from "./run.ts";
import {
  type BashInput,
  bashInputSchema,
  type BashOutput,
  DEFAULT_TIMEOUT_MS,
  MAX_TIMEOUT_MS,
} from "./schema.ts";

export interface BashToolOptions extends ProcessToolOptions {
  /** Default 2 minutes. */
  defaultTimeoutMs?: number;
  /** A foreground command still running after this long moves to the background. Default: the default timeout; null: never. */
  backgroundBudgetMs?: number | null;
  /** Bytes of each stream kept in the result. Default 20,000 (both streams stay under the 50,000-char ceiling). */
  maxOutputBytes?: number;
}

export function createBashTool(options: BashToolOptions = {}): Tool<BashInput, BashOutput> {
  const shared = resolveProcessOptions(options);
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const settings = {
    ...shared,
    defaultTimeoutMs,
    backgroundBudgetMs: options.backgroundBudgetMs === undefined
      ? defaultTimeoutMs
      : options.backgroundBudgetMs,
    maxOutputBytes: options.maxOutputBytes ?? 20_000,
  };
  const readOnly = (input: BashInput) => shared.semantics.readOnlyOf(input.command);
  return buildTool<BashInput, BashOutput>({
    name: "Bash",
    category: "execute",
    searchHint: "shell command terminal run execute script",
    description: "Runs a shell command and returns its output and exit code.",
    prompt: () => bashPrompt(settings),
    inputSchema: bashInputSchema,
    call: (input, ctx, onProgress) => runBash(input, ctx, onProgress, settings),
    toContent: (output) => [{ type: "text", text: bashContentText(output) }],
    // A background task's log is where its output goes, not a cut result's whole.
    persistedPathOf: (output) => (output.backgroundTaskId ? undefined : output.outputPath),
    isReadOnly: readOnly,
    isConcurrencySafe: readOnly,
    interruptBehavior: () => "cancel",
    render: bashRenderer,
  });
}

function bashPrompt(
  settings: { defaultTimeoutMs: number; backgroundBudgetMs: number | null; maxOutputBytes: number },
) {
  const timeout = formatDuration(settings.defaultTimeoutMs);
  const backgroundRule = settings.backgroundBudgetMs === null
    ? `Without \`timeout\`, a command is stopped after ${timeout}.`
    : `A command still running after ${
      formatDuration(settings.backgroundBudgetMs)
    } is not stopped: it moves ` +
      "to the background as a task and the result gives the task id (an explicit `timeout` still stops it when reached).";
  return promptText
    .replace("{{MAX_TIMEOUT}}", `${MAX_TIMEOUT_MS} (${formatDuration(MAX_TIMEOUT_MS)})`)
    .replace("{{BACKGROUND_RULE}}", backgroundRule)
    .replace("{{MAX_OUTPUT}}", formatBytes(settings.maxOutputBytes));
}
