/**
 * Where each host reads its hooks from, and the entries that run `toolrt hook` there. Pure: the
 * file paths come from the scope, the workspace and the environment.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { CLAUDE_TOOLS } from "./claude-tools.ts";
import type { HostName } from "./types.ts";

export type Scope = "project" | "user" | "local";

export interface InstallTarget {
  file: string;
  /** Top-level keys a new file starts with (`{"version": 1}` for Cursor and Copilot CLI). */
  skeleton: Record<string, unknown>;
  /** Hook entries by event name, each added to `hooks[event]`. */
  entries: Record<string, Record<string, unknown>>;
}

export interface TargetContext {
  cwd: string;
  env: Record<string, string | undefined>;
}

/** Host tools toolrt judges, as a matcher (Claude Code, Codex and gemini-cli treat it as a regex). */
const MATCHERS: Partial<Record<HostName, string>> = {
  "claude-code": `^(${CLAUDE_TOOLS.join("|")}|mcp__.*)$`,
  codex: "^(Bash|apply_patch|mcp__.*)$",
  "gemini-cli":
    "^(run_shell_command|write_file|replace|read_file|glob|search_file_content|grep_search|list_directory|web_fetch|mcp__.*)$",
};

const EVENTS: Record<HostName, string[]> = {
  "claude-code": ["PreToolUse", "PostToolUse", "PostToolUseFailure"],
  codex: ["PreToolUse", "PostToolUse"],
  "gemini-cli": ["BeforeTool", "AfterTool"],
  cursor: [
    "beforeShellExecution",
    "beforeMCPExecution",
    "beforeReadFile",
    "afterShellExecution",
    "afterMCPExecution",
    "afterFileEdit",
  ],
  "copilot-cli": ["preToolUse", "postToolUse"],
};

export function installTarget(
  host: HostName,
  scope: Scope,
  command: string,
  ctx: TargetContext,
): InstallTarget {
  const entries: Record<string, Record<string, unknown>> = {};
  for (const event of EVENTS[host]) entries[event] = entryFor(host, command);
  return { file: settingsFile(host, scope, ctx), skeleton: skeletonFor(host), entries };
}

function entryFor(host: HostName, command: string): Record<string, unknown> {
  switch (host) {
    case "cursor":
      return { command };
    case "copilot-cli":
      return { type: "command", bash: command, timeoutSec: 30 };
    case "gemini-cli":
      return { matcher: MATCHERS[host], hooks: [{ type: "command", command, name: "toolrt" }] };
    default:
      return { matcher: MATCHERS[host], hooks: [{ type: "command", command }] };
  }
}

function skeletonFor(host: HostName): Record<string, unknown> {
  return host === "cursor" || host === "copilot-cli" ? { version: 1 } : {};
}

function settingsFile(host: HostName, scope: Scope, { cwd, env }: TargetContext): string {
  const home = env.HOME || homedir();
  if (scope === "local" && host !== "claude-code") {
    throw new Error(`--local is a Claude Code scope (.claude/settings.local.json); ${host} has none`);
  }
  switch (host) {
    case "claude-code":
      return scope === "user"
        ? join(env.CLAUDE_CONFIG_DIR || join(home, ".claude"), "settings.json")
        : join(cwd, ".claude", scope === "local" ? "settings.local.json" : "settings.json");
    case "codex":
      return scope === "user"
        ? join(env.CODEX_HOME || join(home, ".codex"), "hooks.json")
        : join(cwd, ".codex", "hooks.json");
    case "gemini-cli":
      return join(scope === "user" ? home : cwd, ".gemini", "settings.json");
    case "cursor":
      return join(scope === "user" ? home : cwd, ".cursor", "hooks.json");
    case "copilot-cli":
      if (scope === "user") {
        throw new Error("Copilot CLI reads hooks from the repository (.github/hooks/*.json): use --project");
      }
      return join(cwd, ".github", "hooks", "toolrt.json");
  }
}
