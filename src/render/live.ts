/**
 * Human output of a running agent: its stream-json lines, rendered a turn at a time through the
 * same adapter and renderer as `toolrt render`, so a live run and its replay look the same.
 */
import type { StreamJsonLine } from "../agent/stream-json.ts";
import { fromClaudeCode } from "../remote/claude-code.ts";
import { renderTranscript, type TranscriptRenderOptions } from "./transcript.ts";

export function liveRenderer(
  opts: TranscriptRenderOptions,
  write: (text: string) => void,
): (line: StreamJsonLine) => void {
  let pending: StreamJsonLine[] = [];
  let lastMessageId: string | undefined;
  const flush = () => {
    if (pending.length === 0) return;
    const transcript = { ...fromClaudeCode(pending), source: "toolrt" as const };
    pending = [];
    const text = renderTranscript(transcript, opts);
    if (text) write(`${text}\n`);
  };
  return (line) => {
    // A new model message means the previous turn's results are all in: that turn can be shown.
    const startsTurn = line.type === "assistant" && line.message.id !== lastMessageId;
    if (startsTurn || line.type === "system") flush();
    if (line.type === "assistant") lastMessageId = line.message.id;
    pending.push(line);
    if (line.type === "result" || line.type === "system") flush();
  };
}
