/**
 * gemini-cli: BeforeTool / AfterTool with `tool_name` and `tool_input` in gemini-cli's own tool
 * names. The answer is top-level `decision` (allow | deny | ask) with `reason`; `{}` is no opinion.
 */
import { isMcpTool } from "../claude-tools.ts";
import { type Fields, fieldsOf, pick, runsIn, text } from "../payload.ts";
import type { HookEvent, HostProtocol, MappedCall, Verdict } from "../types.ts";
import { optional, warningMessage } from "./claude-code.ts";

export const geminiCli: HostProtocol = {
  name: "gemini-cli",
  read: readGemini,
  // BeforeTool's `hookSpecificOutput.tool_input` is merged over the model's arguments.
  replacesInput: true,
  answer: (verdict: Verdict) =>
    JSON.stringify(
      verdict.decision === "none"
        ? verdict.warnings.length > 0 ? { systemMessage: warningMessage(verdict) } : {}
        : {
          decision: verdict.decision,
          reason: verdict.reason,
          ...(verdict.command === undefined
            ? {}
            : { hookSpecificOutput: { tool_input: { command: verdict.command } } }),
        },
    ),
};

/** gemini-cli tool → toolrt tool, with the input fields renamed to toolrt's. */
const TOOLS: Record<string, (input: Fields) => MappedCall | undefined> = {
  // The model may pick the directory (`dir_path`, earlier `directory`; relative to the project root).
  run_shell_command: (i) =>
    withText(i, "command", (command) => ({
      tool: "Bash",
      input: { command },
      ...runsIn(i, "dir_path", "directory"),
    })),
  write_file: (i) => ({ tool: "Write", input: pick(i, { file_path: "file_path", content: "content" }) }),
  replace: (i) => ({
    tool: "Edit",
    input: pick(i, { file_path: "file_path", old_string: "old_string", new_string: "new_string" }),
  }),
  read_file: (i) =>
    withText(i, "file_path", (file_path) => ({ tool: "Read", input: { file_path } })) ??
      withText(i, "absolute_path", (file_path) => ({ tool: "Read", input: { file_path } })),
  glob: (i) => ({ tool: "Glob", input: pick(i, { pattern: "pattern", dir_path: "path", path: "path" }) }),
  search_file_content: grep,
  grep_search: grep,
  list_directory: (i) => ({ tool: "LS", input: pick(i, { dir_path: "path", path: "path" }) }),
  web_fetch: (i) =>
    withText(i, "prompt", (prompt) => {
      const url = /https?:\/\/[^\s"'<>)]+/.exec(prompt)?.[0];
      return url ? { tool: "WebFetch", input: { url, prompt } } : undefined;
    }),
};

function grep(input: Fields): MappedCall {
  return {
    tool: "Grep",
    input: pick(input, { pattern: "pattern", dir_path: "path", path: "path", include: "glob" }),
  };
}

function withText(input: Fields, key: string, make: (value: string) => MappedCall | undefined) {
  const value = text(input, key);
  return value === undefined ? undefined : make(value);
}

function geminiCalls(tool: string, input: unknown): MappedCall[] {
  if (isMcpTool(tool)) return [{ tool, input: input ?? {} }];
  const fields = fieldsOf(input);
  const call = fields && TOOLS[tool]?.(fields);
  return call ? [call] : [];
}

function readGemini(payload: unknown): HookEvent {
  const fields = fieldsOf(payload);
  const hostEvent = text(fields, "hook_event_name") ?? "";
  if (!fields) return { kind: "ignored", hostEvent, why: "the payload is not a JSON object" };
  const base = {
    hostEvent,
    ...optional("cwd", text(fields, "cwd")),
    ...optional("sessionId", text(fields, "session_id")),
  };
  const hostTool = text(fields, "tool_name");
  if (hostEvent !== "BeforeTool" && hostEvent !== "AfterTool") {
    return { ...base, kind: "ignored", why: `toolrt does not act on ${hostEvent || "an unnamed event"}` };
  }
  if (hostTool === undefined) return { ...base, kind: "ignored", why: `${hostEvent} without tool_name` };
  const calls = geminiCalls(hostTool, fields.tool_input);
  if (hostEvent === "BeforeTool") {
    return { ...base, kind: "pre", hostTool, calls, ...optional("hostInput", fieldsOf(fields.tool_input)) };
  }
  const failed = fieldsOf(fields.tool_response)?.error;
  return { ...base, kind: "post", hostTool, calls, outcome: failed ? "error" : "ok" };
}
