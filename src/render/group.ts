/**
 * The transcript as a list of things to show, and the runs that collapse: consecutive successful
 * calls of one tool that can render a group (`Read 5 files: …`), and consecutive shell commands
 * that only search, read or list (`Searched for 2 patterns, read 1 file`).
 */
import type { ToolResultBlock, ToolUseBlock } from "../tool/messages.ts";
import type { Transcript } from "../remote/transcript.ts";
import type { CommandKind } from "./bash.ts";

export interface CallItem {
  kind: "call";
  use: ToolUseBlock;
  result?: ToolResultBlock;
  output?: unknown;
  nested: boolean;
}

export type RenderItem =
  | { kind: "text"; role: "user" | "assistant"; text: string; nested: boolean }
  | { kind: "note"; text: string }
  | CallItem;

export type RenderBlock =
  | RenderItem
  | { kind: "group"; name: string; calls: CallItem[] }
  | { kind: "collapsed"; calls: CallItem[]; kinds: CommandKind[] };

/** Flattens messages into items, pairing each tool_result with its tool_use by id. */
export function transcriptItems(transcript: Transcript): RenderItem[] {
  const items: RenderItem[] = [];
  const calls = new Map<string, CallItem>();
  for (const message of transcript.messages) {
    const nested = message.parentToolUseId !== undefined;
    for (const block of message.content) {
      if (block.type === "text") {
        if (message.role === "system") items.push({ kind: "note", text: block.text });
        else items.push({ kind: "text", role: message.role, text: block.text, nested });
      } else if (block.type === "tool_use") {
        const call: CallItem = { kind: "call", use: block, nested };
        calls.set(block.id, call);
        items.push(call);
      } else if (block.type === "tool_result") {
        const call = calls.get(block.tool_use_id);
        const output = message.toolOutputs?.[block.tool_use_id];
        if (call) Object.assign(call, { result: block, ...(output !== undefined ? { output } : {}) });
        else {
          const use: ToolUseBlock = {
            type: "tool_use",
            id: block.tool_use_id,
            name: "(unknown call)",
            input: {},
          };
          items.push({ kind: "call", use, result: block, nested });
        }
      }
    }
  }
  return items;
}

export interface GroupingRules {
  /** The tool renders runs of its calls as one line. */
  canGroup(name: string): boolean;
  /** What a shell call only does, or undefined. */
  commandKind(call: CallItem): CommandKind | undefined;
}

export function groupItems(items: readonly RenderItem[], rules: GroupingRules): RenderBlock[] {
  const blocks: RenderBlock[] = [];
  let i = 0;
  while (i < items.length) {
    const item = items[i]!;
    if (item.kind !== "call" || !succeeded(item)) {
      blocks.push(item);
      i++;
      continue;
    }
    const kinds: CommandKind[] = [];
    const collapsible = (c: RenderItem) => {
      const kind = c.kind === "call" && succeeded(c) ? rules.commandKind(c) : undefined;
      if (kind) kinds.push(kind);
      return kind !== undefined;
    };
    const searchRun = runFrom(items, i, collapsible);
    if (searchRun.length > 0) {
      blocks.push({ kind: "collapsed", calls: searchRun, kinds });
      i += searchRun.length;
      continue;
    }
    const sameTool = runFrom(
      items,
      i,
      (c) => c.kind === "call" && succeeded(c) && c.use.name === item.use.name,
    );
    if (sameTool.length >= 2 && rules.canGroup(item.use.name)) {
      blocks.push({ kind: "group", name: item.use.name, calls: sameTool });
      i += sameTool.length;
      continue;
    }
    blocks.push(item);
    i++;
  }
  return blocks;
}

function runFrom(
  items: readonly RenderItem[],
  start: number,
  fits: (item: RenderItem) => boolean,
): CallItem[] {
  const run: CallItem[] = [];
  for (let j = start; j < items.length && fits(items[j]!); j++) run.push(items[j] as CallItem);
  return run;
}

function succeeded(call: CallItem): boolean {
  return call.result !== undefined && !call.result.is_error;
}
