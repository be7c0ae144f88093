/**
 * The pipeline's permission stage on the policy engine: the same `buildRequest` and `decide` that
 * `toolrt check` uses, fed with the same facts, so check and execution cannot disagree.
 */
import type { BashAnalysis } from "../bash/types.ts";
import { buildRequest, decide, DenialTracker, toolFacts } from "../policy/index.ts";
import type { Policy as PolicyRules } from "../policy/policy.ts";
import { shellCommandOf } from "../tool/shell.ts";
import type { Policy, PolicyRequest, PolicyVerdict } from "./permission.ts";
import type { LaunchRequest } from "./processes/launch.ts";
import type { ExecutionPlace } from "./processes/sandbox-context.ts";

/**
 * A pipeline policy over compiled rules; it also counts denials to add guidance when they repeat.
 * `placeOf` says where a shell command will run (the runtime's sandbox); without it, on the host.
 */
export function rulesPolicy(
  rules: PolicyRules,
  denials = new DenialTracker(),
  placeOf?: (request: LaunchRequest) => ExecutionPlace,
): Policy {
  return ({ tool, input, ctx, toolPermission, analysis }: PolicyRequest): PolicyVerdict => {
    // Every shell-running tool is judged as Bash, by the same rules.
    const shell = shellCommandOf(tool.name, input);
    const place = shell === undefined
      ? undefined
      : placeOf?.({ command: shell, unsandboxed: asksToLeave(input) });
    const built = buildRequest(
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
    const request = place?.sandboxed ? { ...built, sandbox: place.context } : built;
    const decision = decide(request, rules);
    denials.record(decision);
    const deciding = decision.matched[0];
    const guidance = denials.guidance(decision);
    return {
      decision: decision.decision,
      reason: decision.reason,
      ...(deciding
        ? {
          rule: deciding.id ? `${deciding.rule} (${deciding.id})` : deciding.rule,
          ruleEffect: deciding.effect,
        }
        : {}),
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

/** Bash's `dangerouslyDisableSandbox: true`: the model asks to run outside the sandbox. */
function asksToLeave(input: unknown): boolean {
  return (input as { dangerouslyDisableSandbox?: unknown } | null)?.dangerouslyDisableSandbox === true;
}
