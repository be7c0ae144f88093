/**
 * GitHub Copilot CLI: preToolUse / postToolUse hooks. The camelCase dialect sends
 * `{timestamp, cwd, toolName, toolArgs}` (toolArgs a JSON string; `toolResult` after the call) and
 * reads `{permissionDecision, permissionDecisionReason}`; the VS Code dialect (PascalCase event
 * names) sends `hook_event_name`, `tool_name`, `tool_input` and reads Claude Code's answer shape.
 */
import { type Fields, fieldsOf, objectField, pick, text } from "../payload.ts";
import type { HookEvent, HostProtocol, MappedCall, PreToolEvent, Verdict } from "../types.ts";
import { answerClaudeShaped, optional, readClaudeShaped } from "./claude-code.ts";

export const copilotCli: HostProtocol = {
  name: "copilot-cli",
  read: readCopilot,
  // Command hooks answer a decision and a reason only (the SDK's modifiedArgs is not theirs).
  replacesInput: false,
  answer: answerCopilot,
};

const TOOLS: Record<string, (input: Fields) => MappedCall | undefined> = {
  bash: (i) => {
    const command = text(i, "command");
    return command === undefined ? undefined : { tool: "Bash", input: { command } };
  },
  edit: (i) => ({
    tool: "Edit",
    input: pick(i, { path: "file_path", old_str: "old_string", new_str: "new_string" }),
  }),
  create: (i) => ({ tool: "Write", input: pick(i, { path: "file_path", file_text: "content" }) }),
  view: (i) => ({ tool: "Read", input: pick(i, { path: "file_path" }) }),
  glob: (i) => ({ tool: "Glob", input: pick(i, { pattern: "pattern", path: "path" }) }),
  grep: (i) => ({ tool: "Grep", input: pick(i, { pattern: "pattern", path: "path", glob: "glob" }) }),
  web_fetch: (i) => ({ tool: "WebFetch", input: pick(i, { url: "url" }) }),
};

function copilotCalls(tool: string, input: unknown): MappedCall[] {
  const fields = fieldsOf(input);
  const call = fields && TOOLS[tool]?.(fields);
  return call ? [call] : [];
}

function readCopilot(payload: unknown): HookEvent {
  const fields = fieldsOf(payload);
  if (fields && typeof fields.hook_event_name === "string") {
    const event = readClaudeShaped(payload, copilotCalls);
    return event.kind === "ignored" ? event : { ...event, dialect: "snake" };
  }
  if (!fields) return { kind: "ignored", hostEvent: "", why: "the payload is not a JSON object" };
  const hostTool = text(fields, "toolName");
  const base = {
    ...optional("cwd", text(fields, "cwd")),
    ...optional("sessionId", text(fields, "sessionId")),
  };
  if (hostTool === undefined) return { ...base, kind: "ignored", hostEvent: "", why: "no toolName" };
  const calls = copilotCalls(hostTool, objectField(fields, "toolArgs"));
  const result = fieldsOf(fields.toolResult);
  if (!result) return { ...base, kind: "pre", hostEvent: "preToolUse", hostTool, calls, dialect: "camel" };
  const outcome = result.resultType === "success" ? "ok" : "error";
  return { ...base, kind: "post", hostEvent: "postToolUse", hostTool, calls, outcome, dialect: "camel" };
}

function answerCopilot(verdict: Verdict, event: PreToolEvent): string {
  if (event.dialect === "snake") return answerClaudeShaped(verdict, event);
  if (verdict.decision === "none") return "";
  return JSON.stringify({ permissionDecision: verdict.decision, permissionDecisionReason: verdict.reason });
}
