/**
 * From toolrt decisions to the answer a host gets. toolrt adds denials and explanations; it never
 * makes the host prompt more than it would on its own:
 *
 * - deny → deny, saying which rule and how to allow the call;
 * - an ask only a person may answer (ask rule, security check, catastrophe, protected path) → ask,
 *   with the reason and any destructive-command warnings;
 * - any other ask ("no rule allows it and it is not read-only") → no decision: the host's own
 *   permission flow runs as it would without toolrt (warnings are still shown where the host can);
 * - allow → allow (read-only calls inside the workspace, or an allow rule).
 */
import type { Decision, MatchedRule } from "../policy/types.ts";
import type { Verdict } from "./types.ts";

/** One verdict for a host call that toolrt judged as several calls (a patch over three files). */
export function verdictFor(decisions: Decision[]): Verdict {
  const warnings = [...new Set(decisions.flatMap((d) => d.warnings))];
  const denied = decisions.find((d) => d.decision === "deny");
  if (denied) return { decision: "deny", reason: denialReason(denied), warnings };
  const hard = decisions.filter((d) => d.decision === "ask" && d.hardAsk);
  if (hard.length > 0) {
    const asked = [...new Set(hard.map((d) => d.reason))];
    // A warning the reason already gives (the rule that asks about `git reset --hard`) is said once.
    const reasons = [...asked, ...warnings.filter((w) => !asked.some((r) => r.includes(w)))];
    return { decision: "ask", reason: `toolrt: ${reasons.join("; ")}`, warnings };
  }
  const open = decisions.find((d) => d.decision === "ask");
  if (open || decisions.length === 0) {
    return { decision: "none", reason: open?.reason ?? "toolrt does not judge this tool", warnings };
  }
  return {
    decision: "allow",
    reason: `toolrt: ${[...new Set(decisions.map((d) => d.reason))].join("; ")}`,
    warnings,
  };
}

/** The deny text the model and the person read: what decided, and what would allow the call. */
function denialReason(decision: Decision): string {
  const how = decision.catastrophic ? BUILT_IN : howToAllow(decision.matched[0]);
  return `toolrt denied this call: ${decision.reason}.${how ? ` ${how}` : ""}`;
}

const BUILT_IN =
  "This is one of toolrt's built-in protections, which no allow rule overrides; if it is really meant, a person has to run it outside the agent.";

function howToAllow(rule: MatchedRule | undefined): string {
  if (!rule) return "";
  switch (rule.source) {
    case "managed":
      return `The rule comes from the managed policy ${rule.file}; only its administrator can change it.`;
    case "default":
      return BUILT_IN;
    case "claude":
      return `To allow it, remove or narrow ${rule.rule} in ${rule.id} of ${rule.file}.`;
    case "cli":
      return `To allow it, drop ${rule.id.replace(/\[\d+\]$/, "")} ${rule.rule} from the hook command.`;
    default:
      return `To allow it, remove or narrow ${rule.rule} (rule ${rule.id}) in ${rule.file}; \`toolrt check\` shows the decision for any call.`;
  }
}
