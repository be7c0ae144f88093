/**
 * Telemetry for a command: configured by the environment and the policy files (src/telemetry/).
 * Ignored settings and the first delivery problem are said on stderr; records lost for good are
 * noted in the audit log, where a fleet's local record stays whole.
 */
import { policyDigestsOf } from "../audit/decision.ts";
import { AuditLog } from "../audit/log.ts";
import type { PolicyState } from "../policy/policy.ts";
import { openTelemetry, type Telemetry } from "../telemetry/index.ts";
import type { GlobalOptions } from "./options.ts";

export async function openCliTelemetry(
  globals: GlobalOptions,
  policy: Pick<PolicyState, "digests"> | undefined,
): Promise<Telemetry | undefined> {
  const { telemetry, warnings } = await openTelemetry({
    cwd: globals.cwd,
    flagFiles: globals.policy,
    stateDir: globals.stateDir,
    onProblem: (message) => process.stderr.write(`toolrt: ${message}\n`),
    onDropped: (detail) => AuditLog.inStateDir(globals.stateDir).append({ kind: "notice", detail }),
  });
  for (const warning of warnings) process.stderr.write(`toolrt: ${warning}\n`);
  return policy ? telemetry?.withPolicy(policyDigestsOf(policy)) : telemetry;
}
