/**
 * A stand-in Session for `toolrt serve` until the pipeline's `createSession` is wired in: it
 * decides by blanket rule strings alone (deny > ask > allow; otherwise read-only tools run and
 * the rest ask) and runs the tool directly. It keeps serve honest meanwhile — nothing runs
 * that policy would ask about unless someone answered — but has no hooks, sandbox or audit.
 */
import { randomUUID } from "node:crypto";
import type { AskRequest, CallOutcome, Decision, ExecuteOptions, Session, ToolCall } from "../exec/types.ts";
import type { ToolPool } from "../pool/tool-pool.ts";
import { parseRuleString, ruleCoversToolName } from "../policy/rule-string.ts";
import { textBlock } from "../tool/messages.ts";
import type { AnyTool, PermissionMode, ToolContext } from "../tool/types.ts";

export interface StandinRules {
  allow: readonly string[];
  ask: readonly string[];
  deny: readonly string[];
}

export interface StandinSessionOptions {
  cwd: string;
  stateDir: string;
  mode: PermissionMode;
  rules: StandinRules;
}

export function createStandinSession(pool: ToolPool, options: StandinSessionOptions): Session {
  const state = { readFiles: new Map(), todos: [] };
  const covers = (rules: readonly string[], name: string) =>
    rules.find((rule) => ruleCoversToolName(parseRuleString(rule).toolName, name));

  const decide = (tool: AnyTool, input: unknown): { decision: Decision; reason: string } => {
    const denied = covers(options.rules.deny, tool.name);
    if (denied) return { decision: "deny", reason: `denied by the rule ${denied}` };
    const asked = covers(options.rules.ask, tool.name);
    if (asked) return { decision: "ask", reason: `the rule ${asked} asks` };
    const allowed = covers(options.rules.allow, tool.name);
    if (allowed) return { decision: "allow", reason: `allowed by the rule ${allowed}` };
    if (tool.isReadOnly(input)) return { decision: "allow", reason: "read-only" };
    return { decision: "ask", reason: `${tool.name} is not read-only and no rule allows it` };
  };

  const execute = async (call: ToolCall, run: ExecuteOptions = {}): Promise<CallOutcome> => {
    const started = performance.now();
    const finish = (
      decision: Decision,
      isError: boolean,
      content: CallOutcome["content"],
      output?: unknown,
    ) => ({
      toolUseId: call.id || randomUUID(),
      toolName: call.name,
      isError,
      content,
      decision,
      ...(output === undefined ? {} : { output }),
      durationMs: performance.now() - started,
    });
    const tool = pool.find(call.name);
    if (!tool) {
      return finish("deny", true, [
        textBlock(`<tool_use_error>Error: No such tool available: ${call.name}</tool_use_error>`),
      ]);
    }
    const parsed = tool.inputSchema.safeParse(call.input);
    if (!parsed.success) {
      return finish("deny", true, [
        textBlock(`<tool_use_error>InputValidationError: ${parsed.error.message}</tool_use_error>`),
      ]);
    }
    const { decision, reason } = decide(tool, parsed.data);
    if (decision === "deny") {
      return finish("deny", true, [textBlock(`Permission to use ${tool.name} denied: ${reason}.`)]);
    }
    if (decision === "ask") {
      const request: AskRequest = {
        toolName: tool.name,
        input: parsed.data,
        reason,
        warnings: [],
        suggestions: [tool.name],
      };
      const answer = run.ask ? await run.ask(request) : undefined;
      if (!answer || answer.behavior === "deny") {
        const why = answer ? answer.message ?? "the user denied it" : "no one can be asked here";
        return finish("ask", true, [
          textBlock(
            `Permission to use ${tool.name} denied: ${reason}, and ${why}. ` +
              `The rule ${tool.name} would allow it (for example --allow '${tool.name}').`,
          ),
        ]);
      }
    }
    const ctx: ToolContext = {
      cwd: options.cwd,
      additionalDirs: [],
      stateDir: options.stateDir,
      mode: options.mode,
      invokedBy: "mcp-client",
      abortSignal: run.signal ?? new AbortController().signal,
      session: state,
      agent: { depth: 0 },
    };
    try {
      const result = await tool.call(parsed.data, ctx, run.onProgress ?? (() => {}));
      return finish(decision, result.isError === true, tool.toContent(result.data, parsed.data), result.data);
    } catch (error) {
      return finish(decision, true, [
        textBlock(`Error: ${error instanceof Error ? error.message : String(error)}`),
      ]);
    }
  };

  return {
    pool,
    cwd: options.cwd,
    stateDir: options.stateDir,
    mode: options.mode,
    invokedBy: "mcp-client",
    execute,
    close: async () => {},
  };
}
