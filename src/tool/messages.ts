/** The message model shared by the pipeline, the agent loop, remote transcripts and rendering. */

export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: string; data: string } }
  | { type: "tool_reference"; tool_name: string };

export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: ContentBlock[];
  is_error: boolean;
}

export type MessageBlock = ContentBlock | ToolUseBlock | ToolResultBlock;

export interface Message {
  role: "user" | "assistant" | "system";
  content: MessageBlock[];
}

export function textBlock(text: string): ContentBlock {
  return { type: "text", text };
}
