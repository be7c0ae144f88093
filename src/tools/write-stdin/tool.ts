/** WriteStdin: sends input to an exec session (or just polls it) and returns what the program printed. */
import { taskRegistryFor } from "../../exec/processes/task-registry.ts";
import { buildTool } from "../../tool/build-tool.ts";
import type { Tool } from "../../tool/types.ts";
import { type ProcessToolOptions, resolveProcessOptions } from "../bash/options.ts";
import { isErrorStatus } from "../bash/outcome.ts";
import {
  collectSessionOutput,
  DEFAULT_MAX_OUTPUT_TOKENS,
  type ExecSessionResult,
  sessionText,
} from "../exec-command/session.ts";
import promptText from "./prompt.md" with { type: "text" };
import { writeStdinRenderer } from "./render.ts";
import { DEFAULT_WRITE_YIELD_MS, type WriteStdinInput, writeStdinInputSchema } from "./schema.ts";

function createWriteStdinTool(
  options: ProcessToolOptions = {},
): Tool<WriteStdinInput, ExecSessionResult> {
  const { semantics } = resolveProcessOptions(options);
  return buildTool<WriteStdinInput, ExecSessionResult>({
    name: "WriteStdin",
    category: "execute",
    // Needed only once a background task or exec session exists: found through ToolSearch.
    shouldDefer: true,
    searchHint: "send input interactive session stdin keys poll",
    description: "Sends input to an exec session, or polls it, and returns the program's new output.",
    prompt: () => promptText,
    inputSchema: writeStdinInputSchema,
    call: async (input, ctx) => {
      const task = taskRegistryFor(ctx.session).require(input.session_id);
      if (task.kind !== "exec") {
        throw new Error(
          `Task ${task.id} was started by Bash and reads no input. ` +
            "Read its output with TaskOutput; start programs that need input with ExecCommand.",
        );
      }
      const chars = input.chars ?? "";
      const exitedBeforeInput = chars !== "" && !task.process.running;
      if (chars !== "" && !exitedBeforeInput) await task.process.write(chars);
      const data = await collectSessionOutput(task, {
        yieldTimeMs: input.yield_time_ms ?? DEFAULT_WRITE_YIELD_MS,
        maxOutputTokens: input.max_output_tokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
        signal: ctx.abortSignal,
        semantics,
      });
      if (exitedBeforeInput) data.note = "The program had already exited; the input was not sent.";
      return { data, isError: isErrorStatus(data.status) };
    },
    toContent: (output) => [{ type: "text", text: sessionText(output) }],
    // Polling only reads; sending input can make the program do anything.
    isReadOnly: (input) => !input.chars,
    isConcurrencySafe: (input) => !input.chars,
    interruptBehavior: () => "cancel",
    render: writeStdinRenderer,
  });
}

export const writeStdinTool = createWriteStdinTool();
