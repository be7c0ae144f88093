/**
 * The pipeline's permission stage on the policy engine: the same `buildRequest` and `decide` that
 * `toolrt check` uses, fed with the same facts, so check and execution cannot disagree.
 */
import type { BashAnalysis } from "../bash/types.ts";
import { buildRequest, decide, DenialTracker, toolFacts } from "../policy/index.ts";
import type { Policy as PolicyRules } from "../policy/policy.ts";
import { shellCommandOf } from "../tool/shell.ts";
import type { Policy, PolicyRequest, PolicyVerdict } from "./permission.ts";

/** A pipeline policy over compiled rules; it also counts denials to add guidance when they repeat. */
export function rulesPolicy(rules: PolicyRules, denials = new DenialTracker()): Policy {
  return ({ tool, input, ctx, toolPermission, analysis }: PolicyRequest): PolicyVerdict => {
    // Every shell-running tool is judged as Bash, by the same rules.
    const shell = shellCommandOf(tool.name, input);
    const request = buildRequest(
      {
        tool: shell === undefined ? tool.name : "Bash",
        input: shell === undefined ? input : { ...(input as object), command: shell },
        cwd: ctx.cwd,
        additionalDirs: ctx.additionalDirs,
        mode: ctx.mode,
        agent: ctx.agent,
        ...(shell !== undefined && analysis ? { bash: analysis as BashAnalysis } : {}),
      },
      toolFacts(tool, input, ctx, toolPermission),
    );
    const decision = decide(request, rules);
    denials.record(decision);
    const deciding = decision.matched[0];
    const guidance = denials.guidance(decision);
    return {
      decision: decision.decision,
      reason: decision.reason,
      ...(deciding ? { rule: deciding.id ? `${deciding.rule} (${deciding.id})` : deciding.rule } : {}),
      ...(deciding
        ? { source: deciding.file ? `${deciding.source}: ${deciding.file}` : deciding.source }
        : {}),
      hookMayAllow: decision.hardAsk !== true,
      warnings: decision.warnings,
      suggestions: decision.suggestions,
      ...(guidance ? { guidance } : {}),
      explained: decision,
    };
  };
}
