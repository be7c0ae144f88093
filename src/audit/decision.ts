/**
 * What the audit log (and through it telemetry) records of a policy decision, the same for the
 * pipeline, `toolrt check` and hook mode: the effect, the reason, and what decided it.
 */
import type { PolicyState } from "../policy/policy.ts";
import type { Decision } from "../policy/types.ts";
import { auditableInput, type AuditEvent, digestInput } from "./log.ts";

export type DecisionFields = Pick<
  AuditEvent,
  "decision" | "reason" | "rule" | "ruleId" | "file" | "source" | "hardAsk" | "checks" | "sandboxed"
>;

/** @example decisionFields(decide(request, policy)) // { decision: "deny", source: "managed", rule: "Bash(rm:*)", ... } */
export function decisionFields(decision: Decision): DecisionFields {
  const rule = decision.matched[0];
  const sandbox = decision.sandbox;
  const source = sandbox?.autoAllowed
    ? "sandbox"
    : rule?.source ?? (decision.checks.length > 0 ? "security-check" : "toolrt");
  return {
    decision: decision.decision,
    reason: decision.reason,
    source,
    ...(rule ? { rule: rule.rule, ruleId: rule.id, file: rule.file } : {}),
    ...(decision.hardAsk ? { hardAsk: true } : {}),
    ...(decision.checks.length > 0 ? { checks: decision.checks } : {}),
    ...(sandbox?.sandboxed !== undefined ? { sandboxed: sandbox.sandboxed } : {}),
  };
}

/** A decision made without running the call (`toolrt check`): what the pipeline records at its permission stage. */
export function checkedDecision(
  tool: string,
  input: unknown,
  decision: Decision,
  context: Pick<AuditEvent, "mode" | "cwd" | "policyDigest">,
): AuditEvent {
  return {
    kind: "decision",
    tool,
    inputDigest: digestInput(input),
    input: auditableInput(input),
    ...decisionFields(decision),
    invokedBy: "check",
    ...context,
  };
}

/** The policy's digest: one over every source file that was read, and one per source. */
export function policyDigestsOf(
  state: Pick<PolicyState, "digests">,
): { digest: string; sources: Record<string, string> } {
  const digests = [...(state.digests ?? [])].sort((a, b) =>
    a.source === b.source ? (a.file < b.file ? -1 : 1) : a.source < b.source ? -1 : 1
  );
  const hash = (list: typeof digests) =>
    new Bun.CryptoHasher("sha256").update(list.map((d) => `${d.source}\0${d.file}\0${d.sha256}\n`).join(""))
      .digest("hex");
  const sources: Record<string, string> = {};
  for (const source of new Set(digests.map((d) => d.source))) {
    sources[source] = hash(digests.filter((d) => d.source === source));
  }
  return { digest: hash(digests), sources };
}
