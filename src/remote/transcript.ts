/**
 * A transcript normalized into the local message model: what the renderer reads, whatever ran the
 * session (toolrt itself, Claude Code in stream-json, Codex with `exec --json`).
 */
import type { ContentBlock, Message } from "../tool/messages.ts";

export type TranscriptSource = "toolrt" | "claude-code" | "codex";

export interface TranscriptMessage extends Message {
  /** Tools' structured outputs by tool_use_id (stream-json's `tool_use_result`), for renderers only. */
  toolOutputs?: Record<string, unknown>;
  /** Set on a subagent's messages: the parent's tool_use that started it. */
  parentToolUseId?: string;
}

export interface Transcript {
  source: TranscriptSource;
  messages: TranscriptMessage[];
}

/** Tool-result content in any of the shapes remote clients write: a string or an array of blocks. */
export function contentBlocks(content: unknown): ContentBlock[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  if (!Array.isArray(content)) return content === undefined || content === null ? [] : [jsonText(content)];
  return content.map((block): ContentBlock => {
    if (block && typeof block === "object") {
      const b = block as Record<string, unknown>;
      if (b.type === "text" && typeof b.text === "string") return { type: "text", text: b.text };
      if (b.type === "tool_reference" && typeof b.tool_name === "string") {
        return { type: "tool_reference", tool_name: b.tool_name };
      }
    }
    return jsonText(block);
  });
}

function jsonText(value: unknown): ContentBlock {
  return { type: "text", text: typeof value === "string" ? value : JSON.stringify(value) };
}

export function systemNote(text: string): TranscriptMessage {
  return { role: "system", content: [{ type: "text", text }] };
}
