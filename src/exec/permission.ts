/**
 * Stage 4: permission. The order: a PreToolUse hook's decision, the tool's own `checkPermissions`,
 * policy rules, and last the person (or the non-interactive answer). A hook "allow" skips the prompt
 * but never an explicit deny or ask rule, a security check or a hard limit.
 */
import type { Decision as ExplainedDecision } from "../policy/types.ts";
import { shellQuote } from "../tool/shell-quote.ts";
import type { AnyTool, PermissionResult, ToolContext } from "../tool/types.ts";
import type { HookOutcome } from "./hooks/outcome.ts";
import type { AskAnswer, Asker, Decision } from "./types.ts";

export interface PolicyRequest {
  tool: AnyTool;
  input: unknown;
  ctx: ToolContext;
  /** The tool's own answer (e.g. "ask: path outside the workspace"). */
  toolPermission: PermissionResult;
  /** What an analyzer found for this input (the Bash analysis), when the tool has one. */
  analysis?: unknown;
}

export interface PolicyVerdict {
  decision: Decision;
  reason: string;
  /** The deciding rule and its source, for the audit log and explanations. */
  rule?: string;
  /** The deciding rule's effect (a dontAsk denial may cite an ask rule); absent: that of `decision`. */
  ruleEffect?: "allow" | "ask" | "deny";
  source?: string;
  /** True when a hook's "allow" may skip this ask (it came from no explicit rule or check). */
  hookMayAllow: boolean;
  warnings: string[];
  suggestions: string[];
  /** After repeated denials: advice for the model to change approach (denial tracking). */
  guidance?: string;
  /** The policy engine's whole decision, for the audit log and telemetry. */
  explained?: ExplainedDecision;
}

export type Policy = (request: PolicyRequest) => PolicyVerdict;

export interface PermissionOutcome {
  decision: Decision;
  reason: string;
  rule?: string;
  source?: string;
  /** Set when a person answered "always allow": the rule to save for the session. */
  grant?: string;
  guidance?: string;
  explained?: ExplainedDecision;
  /** Set when a PreToolUse hook or a person, not the policy, made the decision. */
  decidedBy?: "hook" | "person";
}

export async function decidePermission(
  request: PolicyRequest,
  policy: Policy,
  hook: HookOutcome,
  ask: Asker | undefined,
): Promise<PermissionOutcome> {
  if (hook.decision === "deny") {
    return { decision: "deny", reason: hook.reason ?? "denied by a PreToolUse hook", decidedBy: "hook" };
  }
  const verdict = policy(request);
  const cited = {
    rule: verdict.rule,
    source: verdict.source,
    ...(verdict.explained ? { explained: verdict.explained } : {}),
  };
  if (verdict.decision === "deny") {
    const advice = denialAdvice(verdict, request.ctx);
    return {
      decision: "deny",
      reason: advice ? `${verdict.reason.replace(/\.+$/, "")}. ${advice}` : verdict.reason,
      ...cited,
      ...(verdict.guidance ? { guidance: verdict.guidance } : {}),
    };
  }
  if (hook.decision === "allow" && (verdict.decision === "allow" || verdict.hookMayAllow)) {
    return {
      decision: "allow",
      reason: hook.reason ?? "allowed by a PreToolUse hook",
      ...cited,
      decidedBy: "hook",
    };
  }
  const mustAsk = verdict.decision === "ask" || hook.decision === "ask" || hook.decision === "defer";
  if (!mustAsk) return { decision: "allow", reason: verdict.reason, ...cited };

  const reason = hook.decision === "ask" && hook.reason ? hook.reason : verdict.reason;
  if (!ask) {
    const fromCli = request.ctx.invokedBy === "cli";
    return {
      decision: "deny",
      reason: explainedDenial("nobody can answer", reason, verdict.suggestions, {
        fromCli,
        hardAsk: !verdict.hookMayAllow,
      }),
      ...cited,
    };
  }
  const answer: AskAnswer = await ask({
    toolName: request.tool.name,
    input: request.input,
    reason,
    warnings: verdict.warnings,
    suggestions: verdict.suggestions,
  });
  const answered = { ...cited, decidedBy: "person" as const };
  switch (answer.behavior) {
    case "allow-once":
      return { decision: "allow", reason: "allowed once by the user", ...answered };
    case "allow-always":
      return {
        decision: "allow",
        reason: "allowed by the user for this session",
        grant: answer.rule ?? verdict.suggestions[0] ?? request.tool.name,
        ...answered,
      };
    case "deny":
      return { decision: "deny", reason: answer.message ?? "the user denied this call", ...answered };
  }
}

/**
 * What would allow a call the policy denied: changing the deny rule that decided (deny beats every
 * allow); in dontAsk mode the rule that would have allowed the ask; out of plan mode, for a person
 * at the command line. A catastrophic command: that nothing does. A tool's own refusal: nothing.
 */
function denialAdvice(verdict: PolicyVerdict, ctx: ToolContext): string | undefined {
  const fromCli = ctx.invokedBy === "cli";
  if (verdict.explained?.catastrophic?.length) return "No rule or mode allows it.";
  if (verdict.rule && (verdict.ruleEffect ?? "deny") === "deny") {
    return "To allow it, remove or narrow that deny rule.";
  }
  if (ctx.mode === "dontAsk") {
    if (verdict.suggestions.length > 0) {
      return allowAdvice(verdict.suggestions, { fromCli, once: false }).trim();
    }
    return "Only a person's yes allows it, and dontAsk mode asks no one: run it in another mode to be asked.";
  }
  if (ctx.mode === "plan" && fromCli && verdict.explained?.reason.startsWith("plan mode")) {
    return "To run it, leave plan mode (--mode default).";
  }
  return undefined;
}

/**
 * The denial of an ask that got no "yes" — nobody could answer, or whoever was asked declined —
 * in words the caller can act on: what happened, why it asked, and the rule that would allow it.
 * `fromCli`: said for a person at `toolrt run` (the flags to pass); `hardAsk`: no allow rule can
 * approve it, only a person's answer.
 */
export function explainedDenial(
  what: string,
  reason: string,
  suggestions: readonly string[],
  how: { fromCli?: boolean; hardAsk?: boolean } = {},
): string {
  return `Permission needed and ${what}: ${reason.replace(/\.+$/, "")}.${allowAdvice(suggestions, how)}`;
}

function allowAdvice(
  suggestions: readonly string[],
  how: { fromCli?: boolean; hardAsk?: boolean; once?: boolean },
): string {
  if (how.hardAsk || suggestions.length === 0) {
    return how.fromCli
      ? " Only a person's yes allows it: run it in a terminal and answer, or pass --yes."
      : " Only a person's yes allows it.";
  }
  if (how.fromCli) {
    const flags = suggestions.map((s) => `--allow ${shellQuote(s)}`).join(" or ");
    const rule = JSON.stringify({ effect: "allow", match: suggestions[0] });
    const always = `run it again with ${flags} (or put the rule ${rule} in a policy file's rules)`;
    return how.once === false
      ? ` To allow it, ${always}.`
      : ` To allow it, ${always}; to allow it once, pass --yes.`;
  }
  return ` To allow it, add an allow rule such as ${suggestions.map((s) => `\`${s}\``).join(" or ")}.`;
}
