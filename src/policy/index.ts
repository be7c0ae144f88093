/**
 * Policy as code: what the pipeline, `toolrt check`, `serve`, `hook` and the agent call.
 *
 * ```ts
 * const { policy, errors } = loadPolicy({ cwd, stateDir });
 * const request = buildRequest({ tool: "Read", input, cwd, mode }, await factsFromTool(tool, input, ctx));
 * const decision = decide(request, policy); // { decision: "allow" | "ask" | "deny", reason, matched, ... }
 * ```
 */
export { decide } from "./decide.ts";
export { denialGuidance, DenialTracker } from "./denials.ts";
export { decisionJson, decisionLines } from "./explain.ts";
export { FileProblem } from "./json-position.ts";
export { type LoadOptions, loadPolicy, type LoadResult } from "./load.ts";
export { Policy } from "./policy.ts";
export { formatTestReport, runPolicyTests, type TestOutcome } from "./policy-tests.ts";
export { buildRequest, type CallDescription, factsFromTool, toolFacts } from "./request.ts";
export { policyJsonSchema } from "./schema.ts";
export { addGrant, grantForSession, readGrants } from "./session-grants.ts";
export { isTrusted, setTrust } from "./trust.ts";
export type {
  Decision,
  DecisionRequest,
  Effect,
  MatchedRule,
  PathAccess,
  SourceName,
  ToolFacts,
} from "./types.ts";
