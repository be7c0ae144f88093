/**
 * Codex `exec --json` events into the local message model. Each completed item becomes what a
 * local agent would have written: commands become Bash calls with their output and exit code,
 * MCP calls become `mcp__server__tool` calls, file changes and plans become calls of Codex's own
 * tools (shown as stubs here). Turn bookkeeping (started, usage) is dropped.
 */
import type { ContentBlock } from "../tool/messages.ts";
import { contentBlocks, systemNote, type Transcript, type TranscriptMessage } from "./transcript.ts";

type Item = Record<string, any>;

export function fromCodex(lines: readonly unknown[]): Transcript {
  const messages: TranscriptMessage[] = [];
  for (const raw of lines) {
    if (!raw || typeof raw !== "object") continue;
    const event = raw as Record<string, any>;
    switch (event.type) {
      case "thread.started":
        messages.push(systemNote(`Codex thread ${event.thread_id ?? "?"}`));
        break;
      case "turn.failed":
        messages.push(systemNote(`Turn failed: ${event.error?.message ?? "unknown error"}`));
        break;
      case "error":
        messages.push(systemNote(`Error: ${event.message ?? "unknown error"}`));
        break;
      case "item.completed":
        messages.push(...itemMessages(event.item ?? {}));
        break;
    }
  }
  return { source: "codex", messages };
}

function itemMessages(item: Item): TranscriptMessage[] {
  const id = String(item.id ?? "item");
  switch (item.type) {
    case "agent_message":
      return item.text ? [{ role: "assistant", content: [{ type: "text", text: item.text }] }] : [];
    case "command_execution": {
      const exitCode = typeof item.exit_code === "number" ? item.exit_code : undefined;
      const output = String(item.aggregated_output ?? "");
      return call(id, "Bash", { command: unwrapShell(String(item.command ?? "")) }, {
        content: contentBlocks(output),
        isError: item.status === "failed" || item.status === "declined" || (exitCode ?? 0) !== 0,
        output: {
          stdout: output,
          stderr: "",
          exitCode,
          interrupted: false,
          declined: item.status === "declined",
        },
      });
    }
    case "mcp_tool_call": {
      const failed = item.status === "failed" || item.error;
      return call(id, `mcp__${item.server}__${item.tool}`, item.arguments ?? {}, {
        content: failed
          ? contentBlocks(item.error?.message ?? "failed")
          : contentBlocks(item.result?.content),
        isError: Boolean(failed),
      });
    }
    case "file_change":
      return call(id, "apply_patch", { changes: item.changes ?? [] }, {
        content: contentBlocks(item.status === "failed" ? "patch failed" : "patch applied"),
        isError: item.status === "failed",
      });
    case "web_search":
      return call(id, "web_search", { query: item.query }, undefined);
    case "todo_list":
      return call(id, "update_plan", { items: item.items ?? [] }, undefined);
    case "error":
      return [systemNote(`Error: ${item.message ?? "unknown"}`)];
    default:
      return []; // reasoning summaries and future item types
  }
}

function call(
  id: string,
  name: string,
  input: unknown,
  result: { content: ContentBlock[]; isError: boolean; output?: unknown } | undefined,
): TranscriptMessage[] {
  const use: TranscriptMessage = { role: "assistant", content: [{ type: "tool_use", id, name, input }] };
  if (!result) return [use];
  return [use, {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: id, content: result.content, is_error: result.isError }],
    ...(result.output !== undefined ? { toolOutputs: { [id]: result.output } } : {}),
  }];
}

/** Codex runs commands as `bash -lc '<command>'`; people read the command itself. */
export function unwrapShell(command: string): string {
  const match = /^(?:\/\S*\/)?(?:ba|z)?sh\s+-l?c\s+(['"])([\s\S]*)\1$/.exec(command.trim());
  if (!match) return command;
  const body = match[2]!;
  return match[1] === "'" ? body.replaceAll(`'\\''`, "'") : body.replace(/\\(["\\$`])/g, "$1");
}
