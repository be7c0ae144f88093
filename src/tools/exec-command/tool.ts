/**
 * ExecCommand: starts a long or interactive program as an exec session (in the spirit of Codex's
 * unified exec) and returns what it printed within the yield time, plus a session id for WriteStdin.
 */
import { resolve } from "node:path";
import { startCommand } from "../../exec/processes/start-command.ts";
import { taskRegistryFor } from "../../exec/processes/task-registry.ts";
import { buildTool } from "../../tool/build-tool.ts";
import type { Tool } from "../../tool/types.ts";
import { type ProcessToolOptions, resolveProcessOptions } from "../bash/options.ts";
import { isErrorStatus } from "../bash/outcome.ts";
import promptText from "./prompt.md" with { type: "text" };
import { execCommandRenderer } from "./render.ts";
import { DEFAULT_EXEC_YIELD_MS, type ExecCommandInput, execCommandInputSchema } from "./schema.ts";
import {
  collectSessionOutput,
  DEFAULT_MAX_OUTPUT_TOKENS,
  type ExecSessionResult,
  sessionText,
} from "./session.ts";

/** Per stream bytes kept in memory; sessions are read from their file, so this only bounds memory. */
const SESSION_CAPTURE = { headBytes: 4_096, tailBytes: 4_096 };

export function createExecCommandTool(
  options: ProcessToolOptions = {},
): Tool<ExecCommandInput, ExecSessionResult> {
  const shared = resolveProcessOptions(options);
  const readOnly = (input: ExecCommandInput) => shared.semantics.readOnlyOf(input.cmd);
  return buildTool<ExecCommandInput, ExecSessionResult>({
    name: "ExecCommand",
    category: "execute",
    // Needed only once a background task or exec session exists: found through ToolSearch.
    shouldDefer: true,
    searchHint: "interactive session repl stdin pty terminal long-running",
    description: "Starts a long-running or interactive program as a session that WriteStdin can talk to.",
    prompt: () => promptText,
    inputSchema: execCommandInputSchema,
    call: async (input, ctx) => {
      const { id, process: child, launch } = await startCommand({
        command: input.cmd,
        cwd: resolve(ctx.cwd, input.workdir ?? "."),
        stateDir: ctx.stateDir,
        kind: "exec",
        input: input.tty ? "tty" : "pipe",
        unsandboxed: false,
        wrapLaunch: shared.wrapLaunch,
        capture: SESSION_CAPTURE,
        killGraceMs: shared.killGraceMs,
      });
      child.log.ensureFile();
      const task = taskRegistryFor(ctx.session).add({
        id,
        kind: "exec",
        process: child,
        ...(launch.afterRun ? { afterRun: launch.afterRun } : {}),
      });
      const data = await collectSessionOutput(task, {
        yieldTimeMs: input.yield_time_ms ?? DEFAULT_EXEC_YIELD_MS,
        maxOutputTokens: input.max_output_tokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
        signal: ctx.abortSignal,
        semantics: shared.semantics,
      });
      const explanation = data.status === "failed"
        ? launch.explainFailure?.({ output: data.output, exitCode: data.exit_code ?? 1 })
        : undefined;
      const notes = [...(launch.notices ?? []), ...data.notices ?? [], ...(explanation ? [explanation] : [])];
      return {
        data: notes.length ? { ...data, note: notes.join("\n") } : data,
        isError: isErrorStatus(data.status),
      };
    },
    toContent: (output) => [{ type: "text", text: sessionText(output) }],
    isReadOnly: readOnly,
    isConcurrencySafe: readOnly,
    interruptBehavior: () => "cancel",
    render: execCommandRenderer,
  });
}
