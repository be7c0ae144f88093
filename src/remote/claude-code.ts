/**
 * Claude Code's stream-json (and toolrt's own, which has the same shapes) into the local message
 * model. Tool results are recognized by their content shape — a user message holding tool_result
 * blocks — not by parent ids, which subagent and resumed sessions do not keep reliable.
 * Noise is dropped: a success result that repeats the last answer, hook chatter, thinking.
 */
import type { MessageBlock } from "../tool/messages.ts";
import { contentBlocks, systemNote, type Transcript, type TranscriptMessage } from "./transcript.ts";

type Line = Record<string, any>;

export function fromClaudeCode(lines: readonly unknown[]): Transcript {
  const messages: TranscriptMessage[] = [];
  let source: Transcript["source"] = "claude-code";
  let lastAssistantId: string | undefined;
  let lastText = "";

  for (const raw of lines) {
    if (!raw || typeof raw !== "object") continue;
    const line = raw as Line;
    const parent = typeof line.parent_tool_use_id === "string"
      ? { parentToolUseId: line.parent_tool_use_id }
      : {};
    switch (line.type) {
      case "system": {
        if (line.subtype === "init" && line.toolrt_version) source = "toolrt";
        const note = systemText(line);
        if (note) messages.push(systemNote(note));
        break;
      }
      case "assistant": {
        const blocks = assistantBlocks(line.message?.content);
        if (blocks.length === 0) break;
        const id = line.message?.id;
        const previous = messages.at(-1);
        // Claude Code writes each block of one API message on its own line, with the same id.
        if (id && id === lastAssistantId && previous?.role === "assistant") previous.content.push(...blocks);
        else messages.push({ role: "assistant", content: blocks, ...parent });
        lastAssistantId = id;
        const text = blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n").trim();
        if (text) lastText = text;
        break;
      }
      case "user": {
        const message = userMessage(line);
        if (message) messages.push({ ...message, ...parent });
        lastAssistantId = undefined;
        break;
      }
      case "result": {
        const summary = resultText(line, lastText);
        if (summary) messages.push(systemNote(summary));
        break;
      }
    }
  }
  return { source, messages };
}

function assistantBlocks(content: unknown): MessageBlock[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: Line): MessageBlock[] => {
    switch (block?.type) {
      case "text":
        return block.text ? [{ type: "text", text: block.text }] : [];
      case "tool_use":
      case "server_tool_use":
        return [{ type: "tool_use", id: block.id, name: block.name, input: block.input ?? {} }];
      case "tool_search_tool_result":
        return [{
          type: "tool_result",
          tool_use_id: block.tool_use_id,
          content: (block.content?.tool_references ?? []).map((r: Line) => ({
            type: "tool_reference" as const,
            tool_name: String(r.tool_name),
          })),
          is_error: block.content?.type === "tool_search_tool_result_error",
        }];
      default:
        return []; // thinking and redacted thinking are not shown
    }
  });
}

/** A tool-result message when the content holds tool_result blocks; a prompt otherwise. */
function userMessage(line: Line): TranscriptMessage | undefined {
  const content = line.message?.content;
  if (typeof content === "string") {
    return content.trim() ? { role: "user", content: [{ type: "text", text: content }] } : undefined;
  }
  if (!Array.isArray(content)) return undefined;
  const blocks: MessageBlock[] = [];
  const toolOutputs: Record<string, unknown> = {};
  const results = content.filter((b: Line) => b?.type === "tool_result");
  for (const block of content as Line[]) {
    if (block?.type === "tool_result") {
      blocks.push({
        type: "tool_result",
        tool_use_id: String(block.tool_use_id),
        content: contentBlocks(block.content),
        is_error: block.is_error === true,
      });
      // tool_use_result belongs to the message; it names one call only when the message holds one.
      if (results.length === 1 && line.tool_use_result !== undefined) {
        toolOutputs[String(block.tool_use_id)] = line.tool_use_result;
      }
    } else if (block?.type === "text" && typeof block.text === "string" && block.text.trim()) {
      blocks.push({ type: "text", text: block.text });
    }
  }
  if (blocks.length === 0) return undefined;
  return { role: "user", content: blocks, ...(Object.keys(toolOutputs).length ? { toolOutputs } : {}) };
}

function systemText(line: Line): string | undefined {
  switch (line.subtype) {
    case "init":
      return `Session ${line.session_id ?? "?"} · ${line.model ?? "unknown model"} · ${
        Array.isArray(line.tools) ? line.tools.length : 0
      } tools · ${line.cwd ?? ""}`;
    case "api_retry":
      return `API retry ${line.attempt}/${line.max_retries} in ${line.retry_delay_ms} ms: ${line.error}`;
    case "subagent_permission_request":
      return `Subagent ${line.agent_type} (${line.agent_id}) asks permission for ${line.tool_name}: ${line.text}`;
    case "task_notification":
      return `Subagent ${line.agent_type} (${line.agent_id}) "${line.description}" — ${line.text}`;
    default:
      return undefined; // hook responses, status pings and the like
  }
}

function resultText(line: Line, lastText: string): string | undefined {
  const denials = Array.isArray(line.permission_denials) ? line.permission_denials.length : 0;
  const repeats = !line.result || String(line.result).trim() === lastText;
  if (line.subtype === "success" && !line.is_error && repeats && denials === 0) return undefined;
  const parts = [`${line.subtype ?? "result"} after ${line.num_turns ?? "?"} turns`];
  if (denials) parts.push(`${denials} permission denial${denials === 1 ? "" : "s"}`);
  if (!repeats) parts.push(String(line.result));
  return parts.join(" · ");
}
