import type { Policy } from "../../src/exec/permission.ts";

/**
 * Without policy rules: the tool's own answer, and for tools without one, read-only calls run and
 * everything else asks.
 */
export const toolOnlyPolicy: Policy = ({ tool, input, toolPermission }) => {
  const base = { hookMayAllow: true, warnings: [], suggestions: [] };
  switch (toolPermission.behavior) {
    case "allow":
      return { ...base, decision: "allow", reason: toolPermission.reason ?? `${tool.name} allowed itself` };
    case "deny":
      return { ...base, decision: "deny", reason: toolPermission.message, hookMayAllow: false };
    case "ask":
      return { ...base, decision: "ask", reason: toolPermission.message };
    case "passthrough":
      return tool.isReadOnly(input)
        ? { ...base, decision: "allow", reason: "read-only" }
        : { ...base, decision: "ask", reason: `${tool.name} needs permission` };
  }
};
