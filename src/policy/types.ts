/** The shapes policy shares with the pipeline, `toolrt check`, `serve`, `hook` and the agent. */
import type { BashAnalysis } from "../bash/types.ts";
import type { PermissionMode, PermissionResult } from "../tool/types.ts";

export type Effect = "allow" | "ask" | "deny";

/** Where a rule came from, highest first in precedence of files (deny > ask > allow across all). */
export type SourceName =
  | "managed"
  | "user"
  | "project"
  | "local"
  | "flag"
  | "cli"
  | "session"
  | "claude"
  | "default";

/** One rule that took part in a decision, as `toolrt check --json` prints it. */
export interface MatchedRule {
  source: SourceName;
  /** The file the rule was read from; for cli rules `--deny`, for session grants the grants file. */
  file: string;
  /** The rule string as written (`Bash(git push --force:*)`). */
  rule: string;
  effect: Effect;
  id: string;
}

/** A default rule that matched the call but is turned off, and the file that turned it off. */
export interface DisabledDefaultMet {
  id: string;
  /** The rule string as the default writes it (`Read(.env.*)`). */
  rule: string;
  effect: Effect;
  disabledBy: string;
  source: SourceName;
}

/** What the tool itself says about this input (from the Tool contract). */
export interface ToolFacts {
  /** `tool.isReadOnly(input)`; unknown means not read-only (fail closed). */
  readOnly?: boolean;
  /** Paths the call touches, absolute or relative to cwd (`tool.getPath`); derived from input if absent. */
  paths?: string[];
  /** `tool.checkPermissions(input, ctx)`, when the tool has an opinion. */
  permission?: PermissionResult;
  /** MCP tools whose server demands a person answer (`_meta["anthropic/requiresUserInteraction"]`). */
  requiresUserInteraction?: boolean;
}

/** A path the call reads or writes, absolute, with its symlink target when it differs. */
export interface PathAccess {
  path: string;
  access: "read" | "write";
  /** Real path when `path` is (or goes through) a symlink; allow needs both to match, deny either. */
  target?: string;
  /** For Bash: the sub-command that touches the path. */
  command?: string;
  /** Why where it points cannot be known when deciding (`~-/x`): it counts as outside the workspace. */
  unresolved?: string;
  /**
   * For a directory git takes its repository from: why that repository's configuration is not
   * trusted like the workspace's own (`git-repository.ts`). No allow rule for paths covers it.
   */
  untrusted?: string;
  /** `untrusted` is only that it may reach the network, which the sandbox blocks (a partial clone). */
  network?: boolean;
  /**
   * Files below `path` it writes, which ones known only when it runs (a patch read from the input):
   * why. Edit deny and ask rules on anything below keep the sandbox from standing in.
   */
  below?: string;
}

/** Everything `decide` looks at. Build it with `buildRequest` so every caller supplies the same facts. */
export interface DecisionRequest {
  tool: string;
  input: unknown;
  /** Workspace root. */
  cwd: string;
  additionalDirs: string[];
  mode: PermissionMode;
  agent: { depth: number; type?: string };
  readOnly: boolean;
  paths: PathAccess[];
  permission?: PermissionResult;
  requiresUserInteraction?: boolean;
  /**
   * Files a git command may print as git stored them (`git log -p`, `git show`): Read deny and ask
   * rules are matched against them; nothing else is (they are not files it opens).
   */
  historyReads?: PathAccess[];
  /** The Bash analyzer's result; without it the whole command string is one sub-command, no checks. */
  bash?: BashAnalysis;
  /** Set when this shell call will run inside toolrt's sandbox; absent: it runs on the host. */
  sandbox?: SandboxContext;
}

/**
 * What the sandbox a shell call will run in contains, as the decision needs it (built from the
 * policy's `sandbox` section and the workspace by the caller that runs the call).
 */
export interface SandboxContext {
  /** Writable directories, the workspace first (and a private $TMPDIR besides). */
  writable: string[];
  /** Hosts the sandbox's proxy lets through; empty: no network. */
  allowNet: string[];
  /** Hosts not on the list are put to a person while the command runs (interactive sessions). */
  asksForHosts: boolean;
  /** Paths hidden from the command. */
  denyRead: string[];
  /** The credential locations among them (hidden by default; `sandbox.allowRead` lets one through). */
  credentials?: string[];
  /** Why sandboxed calls are not auto-allowed (`sandbox.autoAllow` off and where); absent: they are. */
  autoAllowOff?: string;
  /** The model asked to run this call outside the sandbox (`dangerouslyDisableSandbox`). */
  escapeRequested?: boolean;
  /** Why the sandbox cannot enforce its profile as written; the call would not run. */
  refusals?: string[];
}

export interface Decision {
  tool: string;
  decision: Effect;
  reason: string;
  /** The rules that decided (their effect is the one that won). */
  matched: MatchedRule[];
  /** Ids of Bash security checks that forced a prompt. */
  checks: number[];
  /** Ids of the catastrophe table's entries that denied it (built-in: no rule or mode allows them). */
  catastrophic?: string[];
  warnings: string[];
  /** Rule strings a person could save to allow calls like this one. */
  suggestions: string[];
  /** Allow rules that matched but lost to a broader ask or deny. */
  overridden: MatchedRule[];
  /** Allow rules that matched but were ignored because the workspace is not trusted. */
  untrusted: MatchedRule[];
  /** Shipped default rules that would have matched but a policy file turned off (`"disable"`). */
  disabledDefaults?: DisabledDefaultMet[];
  /**
   * An ask only a person may answer: an explicit ask rule, a security check, a catastrophic
   * command, a protected path or a tool that needs user interaction. A PreToolUse hook's "allow"
   * skips other asks, never these.
   */
  hardAsk?: true;
  /** For shell calls: where the call runs and whether the sandbox made the decision. */
  sandbox?: SandboxVerdict;
}

/** The sandbox's part in a decision, as `toolrt check` explains it. */
export interface SandboxVerdict {
  /** The call runs inside toolrt's sandbox. */
  sandboxed: boolean;
  /** The sandbox was the allow list: no rule allowed the call, containment did. */
  autoAllowed: boolean;
  /** Why the sandbox did not allow it (a rule, a check, a command that needs the host ...), when it did not. */
  notAutoAllowed?: string;
  /** What the command may try that the sandbox will block, and the exception a person could grant. */
  needsPerson: string[];
}
