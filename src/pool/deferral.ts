/**
 * Which tools the model sees on turn one and which wait behind ToolSearch, with the reason for
 * each (`toolrt tools --json` shows both). In order:
 * 1. ToolSearch never defers: it is how deferred tools are found.
 * 2. alwaysLoad wins — from the tool itself or from the settings' `alwaysLoad` list.
 * 3. The settings' `defer` list, then the tool's own `shouldDefer`.
 * 4. MCP tools defer by default: servers come and go per session, and loading their schemas up
 *    front would change the prompt prefix with every connection.
 * 5. Everything else loads on turn one.
 */
import { ruleCoversToolName } from "../policy/rule-string.ts";
import { TOOL_SEARCH_NAME } from "../tools/tool-search/schema.ts";
import type { AnyTool } from "../tool/types.ts";

/**
 * Per-tool overrides from settings or policy: tool names, globs (`mcp__github__*`) or whole MCP
 * servers (`mcp__github`), as in permission rules.
 */
export interface DeferralOverrides {
  alwaysLoad?: readonly string[];
  defer?: readonly string[];
}

export interface DeferralDecision {
  deferred: boolean;
  reason: string;
}

export function decideDeferral(tool: AnyTool, overrides: DeferralOverrides = {}): DeferralDecision {
  if (tool.name === TOOL_SEARCH_NAME) {
    return { deferred: false, reason: "ToolSearch is never deferred: it finds the deferred tools" };
  }
  const loadRule = matchingRule(overrides.alwaysLoad, tool.name);
  if (loadRule) return { deferred: false, reason: `settings alwaysLoad: ${loadRule}` };
  if (tool.alwaysLoad) return { deferred: false, reason: "the tool is marked alwaysLoad" };
  const deferRule = matchingRule(overrides.defer, tool.name);
  if (deferRule) return { deferred: true, reason: `settings defer: ${deferRule}` };
  if (tool.shouldDefer) return { deferred: true, reason: "the tool is marked shouldDefer" };
  if (tool.origin.kind === "mcp") {
    return {
      deferred: true,
      reason: `MCP tools are deferred by default (server ${tool.origin.server ?? "?"})`,
    };
  }
  return { deferred: false, reason: `${tool.origin.kind} tools load on turn one unless marked shouldDefer` };
}

function matchingRule(rules: readonly string[] | undefined, name: string): string | undefined {
  return rules?.find((rule) => ruleCoversToolName(rule, name));
}
