/**
 * Codex: the same hook wire format as Claude Code (PreToolUse / PostToolUse, `tool_name`,
 * `tool_input`, `hookSpecificOutput`). Shell calls arrive as `Bash` (or, from older builds, as
 * `shell` / `local_shell` / `exec_command` / `shell_command` with a string or an argv array);
 * file edits as `apply_patch` with the patch envelope in `tool_input.command`.
 */
import { patchedFiles } from "../apply-patch.ts";
import { claudeCalls, isMcpTool } from "../claude-tools.ts";
import { fieldsOf, runsIn, text } from "../payload.ts";
import { commandText } from "../shell-command.ts";
import type { HostProtocol, MappedCall } from "../types.ts";
import { answerClaudeShaped, readClaudeShaped } from "./claude-code.ts";

const SHELL_TOOLS = new Set([
  "Bash",
  "shell",
  "local_shell",
  "container.exec",
  "exec_command",
  "shell_command",
]);

export const codex: HostProtocol = {
  name: "codex",
  read: (payload) => readClaudeShaped(payload, codexCalls),
  // Codex enforces a hook's deny only: a changed command would not run.
  replacesInput: false,
  answer: answerClaudeShaped,
};

function codexCalls(tool: string, input: unknown): MappedCall[] {
  const fields = fieldsOf(input);
  if (SHELL_TOOLS.has(tool)) {
    const command = commandText(fields?.command ?? fields?.cmd);
    // The model may pick the directory (`workdir`; `local_shell`: `working_directory`), relative to the
    // session's cwd: the command runs there.
    return command === undefined
      ? []
      : [{ tool: "Bash", input: { command }, ...runsIn(fields, "workdir", "working_directory") }];
  }
  if (tool === "apply_patch") {
    const patch = text(fields, "command", "input", "patch");
    return patch === undefined
      ? []
      : patchedFiles(patch).map((file_path) => ({ tool: "Edit", input: { file_path } }));
  }
  return isMcpTool(tool) ? claudeCalls(tool, input) : [];
}
