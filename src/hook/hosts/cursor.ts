/**
 * Cursor: one event per kind of action. beforeShellExecution `{command, cwd}`, beforeMCPExecution
 * `{tool_name, tool_input}`, beforeReadFile `{file_path}`; after* events are recorded. The answer
 * is `{permission, user_message, agent_message}`; beforeReadFile knows only allow and deny.
 */
import { fieldsOf, objectField, text } from "../payload.ts";
import type { HookEvent, HostProtocol, MappedCall, PreToolEvent, Verdict } from "../types.ts";
import { optional } from "./claude-code.ts";
import { isInside } from "../../tool/paths.ts";

/** Cursor does not name the MCP server in the payload: its tools are judged as this server's. */
const CURSOR_MCP_SERVER = "cursor";

export const cursor: HostProtocol = {
  name: "cursor",
  read: readCursor,
  // `{permission, user_message, agent_message}`: nothing in the answer changes the command.
  replacesInput: false,
  answer: answerCursor,
};

const PRE: Record<string, (fields: Record<string, unknown>) => MappedCall[]> = {
  beforeShellExecution: shellCall,
  beforeMCPExecution: mcpCall,
  beforeReadFile: (f) => fileCall("Read", f),
};
const POST: Record<string, (fields: Record<string, unknown>) => MappedCall[]> = {
  afterShellExecution: shellCall,
  afterMCPExecution: mcpCall,
  afterFileEdit: (f) => fileCall("Edit", f),
};

function shellCall(fields: Record<string, unknown>): MappedCall[] {
  const command = text(fields, "command");
  return command === undefined ? [] : [{ tool: "Bash", input: { command } }];
}

function mcpCall(fields: Record<string, unknown>): MappedCall[] {
  const name = text(fields, "tool_name");
  if (!name) return [];
  const tool = name.startsWith("mcp__") ? name : `mcp__${CURSOR_MCP_SERVER}__${name}`;
  return [{ tool, input: objectField(fields, "tool_input") ?? {} }];
}

function fileCall(tool: string, fields: Record<string, unknown>): MappedCall[] {
  const file_path = text(fields, "file_path");
  return file_path === undefined ? [] : [{ tool, input: { file_path } }];
}

function readCursor(payload: unknown): HookEvent {
  const fields = fieldsOf(payload);
  const hostEvent = text(fields, "hook_event_name") ?? "";
  if (!fields) return { kind: "ignored", hostEvent, why: "the payload is not a JSON object" };
  const roots = Array.isArray(fields.workspace_roots)
    ? fields.workspace_roots.filter((r): r is string => typeof r === "string" && r.startsWith("/"))
    : [];
  // `cwd` is the shell's, which a `cd` earlier in the session moves: the workspace is a root.
  const cwd = text(fields, "cwd") ?? roots[0];
  const base = {
    hostEvent,
    ...optional("cwd", cwd),
    ...optional("root", rootOf(roots, cwd)),
    ...optional("sessionId", text(fields, "conversation_id")),
  };
  const pre = PRE[hostEvent];
  if (pre) return { ...base, kind: "pre", hostTool: hostEvent, calls: pre(fields) };
  const post = POST[hostEvent];
  if (post) return { ...base, kind: "post", hostTool: hostEvent, calls: post(fields), outcome: "ok" };
  return { ...base, kind: "ignored", why: `toolrt does not act on ${hostEvent || "an unnamed event"}` };
}

/** The workspace root holding `cwd` (the deepest when roots nest), else the first. */
function rootOf(roots: string[], cwd: string | undefined): string | undefined {
  const holding = roots.filter((r) => cwd !== undefined && isInside(cwd, r));
  return holding.sort((a, b) => b.length - a.length)[0] ?? roots[0];
}

function answerCursor(verdict: Verdict, event: PreToolEvent): string {
  if (verdict.decision === "none") return "{}";
  // beforeReadFile cannot ask: what needs a person's yes is refused, with the reason.
  const permission = event.hostEvent === "beforeReadFile" && verdict.decision === "ask"
    ? "deny"
    : verdict.decision;
  if (event.hostEvent === "beforeReadFile") return JSON.stringify({ permission });
  return JSON.stringify({ permission, user_message: verdict.reason, agent_message: verdict.reason });
}
