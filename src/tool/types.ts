/**
 * The Tool contract: one shape for every tool source (built-in, MCP, plugin, remote).
 * The pipeline, the pool, policy and rendering only ever see this shape.
 */
import type { z } from "zod";
import type { ContentBlock, Message } from "./messages.ts";

export type ToolOriginKind = "builtin" | "mcp" | "plugin" | "remote";

export interface ToolOrigin {
  kind: ToolOriginKind;
  /** MCP server name, plugin name or remote agent name. */
  server?: string;
  /** The name the source used before normalisation (e.g. the MCP tool's own name). */
  originalName?: string;
  /** What the source claims about the tool (MCP annotations). */
  hints?: SourceHints;
}

/**
 * A source's own claims about a tool, kept as data for display and audit. Never trusted for
 * policy: a `readOnly` hint does not make the tool read-only, nor does it allow a call.
 */
export interface SourceHints {
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
}

/** Who asked for a call. Provenance only: it is recorded, it never changes the execution flow. */
export type InvokedBy = "provider" | "toolshim" | "mcp-client" | "hook" | "remote-agent" | "cli";

export type PermissionMode = "default" | "acceptEdits" | "plan" | "bypassPermissions" | "dontAsk";

export type JsonSchema = { [key: string]: unknown };

export type ValidationResult =
  | { ok: true }
  /** `behavior: "ask"` hands the decision to the user instead of refusing outright. */
  | { ok: false; message: string; behavior?: "deny" | "ask"; errorCode?: string };

export type PermissionResult<Input = unknown> =
  | { behavior: "allow"; updatedInput?: Input; reason?: string }
  | { behavior: "ask"; message: string; suggestions?: string[] }
  | { behavior: "deny"; message: string }
  /** The tool has no opinion: policy rules and the mode decide. */
  | { behavior: "passthrough" };

/** What a tool remembers between calls in one session (read-before-write, todos, ...). */
export interface SessionState {
  /** Absolute path → what the file looked like when it was last read or written by a tool. */
  readFiles: Map<string, { mtimeMs: number; size: number }>;
  todos: TodoItem[];
  /** The named session this state is saved in between invocations (`toolrt run --session NAME`). */
  name?: string;
}

export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
  activeForm?: string;
}

export interface ToolContext {
  /** Workspace root: file tools refuse paths outside it and `additionalDirs`. */
  cwd: string;
  additionalDirs: string[];
  /** Where large results, task output and session grants are written. */
  stateDir: string;
  mode: PermissionMode;
  invokedBy: InvokedBy;
  abortSignal: AbortSignal;
  session: SessionState;
  agent: { depth: number; type?: string };
  /**
   * The rule that keeps a Read of this absolute path from running without a person (`Read(*.key)
   * asks`), or undefined when a Read would run. Tools that print files they find (Grep) leave such
   * files out; absent, nothing is left out.
   */
  readGuard?: (path: string) => string | undefined;
}

export interface ToolProgress {
  toolUseId?: string;
  message: string;
  data?: unknown;
}

export interface ToolResult<Output = unknown> {
  data: Output;
  /** The call ran but failed (e.g. a non-zero exit a tool treats as failure). */
  isError?: boolean;
  /** Extra messages to inject after the tool result (e.g. attachments). */
  newMessages?: Message[];
  /** Applied to the context for the calls that follow this one. */
  contextModifier?: (ctx: ToolContext) => ToolContext;
}

export type InterruptBehavior = "cancel" | "block";

/**
 * What kind of work a tool does, for the pool's modes: plan mode keeps `read`, `execute` (whose
 * read-only inputs alone are then permitted) and `orchestration`; coordinator mode keeps only
 * `orchestration`. Unknown tools are `other`, which every restricted mode hides.
 */
export type ToolCategory = "read" | "edit" | "execute" | "network" | "orchestration" | "other";

export interface RenderOptions {
  color: boolean;
  verbose: boolean;
  /** Terminal width, for truncating long lines. */
  columns: number;
}

/** Plain-text renderers (ANSI colour when `color` is set). */
export interface ToolRenderer<Input, Output> {
  /** One line naming the call: `Read(src/a.ts)`. */
  toolUse(input: Partial<Input>, opts: RenderOptions): string;
  /** The result as a person wants to read it. */
  result(output: Output, input: Partial<Input>, opts: RenderOptions): string;
  rejected(input: Partial<Input>, reason: string, opts: RenderOptions): string;
  error(message: string, input: Partial<Input>, opts: RenderOptions): string;
  /** Consecutive calls of this tool collapsed into one line, when the tool supports it. */
  grouped?(inputs: Partial<Input>[], opts: RenderOptions): string;
}

export interface Tool<Input = any, Output = any> {
  readonly name: string;
  /** Other names that resolve to this tool (old names kept for compatibility). */
  readonly aliases: readonly string[];
  /** Aliases among `aliases` that still work but earn a deprecation notice. */
  readonly deprecatedAliases: readonly string[];
  /** Extra words for ToolSearch, not shown to the model. */
  readonly searchHint?: string;
  readonly origin: ToolOrigin;
  readonly category: ToolCategory;

  readonly inputSchema: z.ZodType<Input>;
  readonly outputSchema?: z.ZodType<Output>;
  /** The JSON Schema the model sees: derived from `inputSchema` unless the source supplies one (MCP). */
  inputJSONSchema(): JsonSchema;

  /** A name for people (an MCP tool's `title`); the model calls the tool by `name`. */
  readonly title?: string;
  /** The JSON Schema of the tool's structured result, when it declares one (an MCP `outputSchema`). */
  outputJSONSchema?(): JsonSchema | undefined;
  /** The structured result of a call, for clients that take one (MCP `structuredContent`). */
  structuredContent?(output: Output): unknown;
  /** Where the tool itself saved the whole output of a call whose result holds only part of it. */
  persistedPathOf?(output: Output): string | undefined;

  /** One or two sentences: what the tool does. */
  readonly description: string;
  /** The full model-facing instructions. */
  prompt(): string;

  call(input: Input, ctx: ToolContext, onProgress: (p: ToolProgress) => void): Promise<ToolResult<Output>>;
  /** Turns the output into the content blocks the model receives. */
  toContent(output: Output, input: Input): ContentBlock[];

  validateInput(input: Input, ctx: ToolContext): Promise<ValidationResult>;
  checkPermissions(input: Input, ctx: ToolContext): Promise<PermissionResult<Input>>;
  isEnabled(): boolean;
  /** Why `isEnabled()` is false, for the error a call of the hidden tool gets. */
  disabledReason?(): string;
  isReadOnly(input: Input): boolean;
  isDestructive(input: Input): boolean;
  isConcurrencySafe(input: Input): boolean;
  interruptBehavior(): InterruptBehavior;
  /** Wrappers (e.g. a REPL) whose own use is not shown; their inner calls are. */
  readonly isTransparentWrapper: boolean;
  readonly maxResultSizeChars: number;
  /** Kept out of the model's first turn; found through ToolSearch. */
  readonly shouldDefer: boolean;
  /** Always sent in full, never deferred (wins over `shouldDefer`). */
  readonly alwaysLoad: boolean;
  /** Paths the call touches, for path rules and read-before-write (file tools). */
  getPath?(input: Input, ctx: ToolContext): string | undefined;

  readonly render: ToolRenderer<Input, Output>;
}

export type AnyTool = Tool<any, any>;
