/** What every host adapter turns a hook payload into, and what toolrt answers. */

export const HOSTS = ["claude-code", "codex", "gemini-cli", "cursor", "copilot-cli"] as const;
export type HostName = (typeof HOSTS)[number];

/** How `toolrt hook` was invoked: whose protocol it speaks, and whether `--sandbox` was given. */
export interface HookInvocation {
  host: HostName;
  /** Shell commands left to the host's prompt run under `toolrt sandbox` instead, where the host allows. */
  sandbox: boolean;
}

/** One call as toolrt's policy sees it: a toolrt tool name and its input. */
export interface MappedCall {
  tool: string;
  input: unknown;
  /** A shell call's own working directory, when the host's tool input names one (Codex's `workdir`). */
  runsIn?: RunsIn;
}

/** A directory as the host's tool input gives it (relative to the event's cwd), or why it cannot be read. */
export type RunsIn = { dir: string } | { unreadable: string };

interface EventBase {
  /** The event name as the host sent it (`PreToolUse`, `BeforeTool`, `beforeShellExecution`...). */
  hostEvent: string;
  /** The host's working directory for the call, when it said. */
  cwd?: string;
  /** The workspace root, when the host names it apart from `cwd` (Cursor's `workspace_roots`). */
  root?: string;
  sessionId?: string;
}

/** Before a tool runs: the host waits for an answer. */
export interface PreToolEvent extends EventBase {
  kind: "pre";
  hostTool: string;
  /** The toolrt calls this host call amounts to (an `apply_patch` touching 3 files is 3 Edits); empty when unknown. */
  calls: MappedCall[];
  toolUseId?: string;
  /** The host's permission mode, when it sends one (Claude Code's `permission_mode`). */
  mode?: string;
  /** Host-specific detail the answer needs (Copilot CLI's payload dialect). */
  dialect?: "camel" | "snake";
  /** The tool input as the host sent it, for answers that replace it (`updatedInput`). */
  hostInput?: Record<string, unknown>;
}

/** After a tool ran (or failed): recorded in the audit log, nothing to answer. */
export interface PostToolEvent extends EventBase {
  kind: "post";
  hostTool: string;
  calls: MappedCall[];
  toolUseId?: string;
  outcome: "ok" | "error";
  durationMs?: number;
  dialect?: "camel" | "snake";
}

/** An event toolrt has nothing to say about, or a payload it cannot read. */
export interface IgnoredEvent extends EventBase {
  kind: "ignored";
  why: string;
}

export type HookEvent = PreToolEvent | PostToolEvent | IgnoredEvent;

/** toolrt's answer before a call; "none" lets the host decide as it would without toolrt. */
export interface Verdict {
  decision: "allow" | "deny" | "ask" | "none";
  reason: string;
  /** Destructive-command warnings to show the person even when toolrt takes no decision. */
  warnings: string[];
  /** With "allow": the shell command to run instead (the original under `toolrt sandbox`). */
  command?: string;
}

/** One host's hook protocol: pure reading of its payloads and writing of its answers. */
export interface HostProtocol {
  name: HostName;
  read(payload: unknown): HookEvent;
  /**
   * Whether the host runs a changed input the answer gives (`toolrt hook --sandbox` needs it);
   * for the others the shell command stays the host's to prompt for.
   */
  replacesInput: boolean;
  /** The variable the host sets to the project root when it runs a hook (Claude Code's `CLAUDE_PROJECT_DIR`). */
  projectDirVariable?: string;
  /** The text for stdout (possibly empty: no opinion). */
  answer(verdict: Verdict, event: PreToolEvent): string;
}
