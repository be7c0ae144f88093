/**
 * Claude Code's tool names and inputs, which toolrt's policy already speaks (claude-code-compat.md
 * §1): the calls pass through unchanged. Codex and Copilot CLI's VS Code dialect reuse it for MCP.
 */
import type { MappedCall } from "./types.ts";

/** The Claude Code tools toolrt decides; any other tool gets no decision from toolrt. */
export const CLAUDE_TOOLS = [
  "Bash",
  "Read",
  "Edit",
  "MultiEdit",
  "Write",
  "Glob",
  "Grep",
  "WebFetch",
  "NotebookEdit",
] as const;

const KNOWN = new Set<string>(CLAUDE_TOOLS);

export function isMcpTool(name: string): boolean {
  return /^mcp__[^_].*__.+/.test(name);
}

/** The toolrt call for a Claude Code tool call, or none when toolrt does not judge this tool. */
export function claudeCalls(tool: string, input: unknown): MappedCall[] {
  if (tool === "Bash") {
    const command = (input as { command?: unknown } | null)?.command;
    return typeof command === "string" ? [{ tool, input: { command } }] : [];
  }
  return KNOWN.has(tool) || isMcpTool(tool) ? [{ tool, input: input ?? {} }] : [];
}
