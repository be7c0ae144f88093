/**
 * Filtering before exposure: what the mode hides or a blanket deny removes never reaches the model.
 */
import { isBlanket, parseRuleString, toolNameMatcher } from "../policy/rule-string.ts";
import { SHELL_TOOLS } from "../tool/shell.ts";
import type { AnyTool, ToolCategory } from "../tool/types.ts";

/** How much of the pool a session exposes. Distinct from permission modes, which judge calls. */
export type PoolMode = "default" | "simple" | "plan" | "coordinator";

export interface SourcedRule {
  rule: string;
  /** Where the rule came from (`managed`, `cli`, a file path ...), for explanations. */
  source: string;
  /** Why the tool is gone, as a call's denial says it (the rule's reason, id and file); default: rule and source. */
  reason?: string;
  /**
   * Which tool names the rule removes, when the caller has already compiled it (policy files'
   * `tool` lists); otherwise `rule` is parsed, and only a blanket rule string removes tools.
   */
  covers?: (toolName: string) => boolean;
}

export interface HiddenTool {
  name: string;
  reason: string;
}

const SIMPLE_MODE_TOOLS = new Set(["Bash", "Read", "Edit"]);
const PLAN_MODE_CATEGORIES = new Set<ToolCategory>(["read", "execute", "orchestration"]);

/** Why a mode hides a tool, or undefined when the mode keeps it. */
function modeHides(mode: PoolMode, tool: AnyTool): string | undefined {
  switch (mode) {
    case "default":
      return undefined;
    case "simple":
      return SIMPLE_MODE_TOOLS.has(tool.name) ? undefined : "simple mode offers only Bash, Read and Edit";
    case "plan":
      return PLAN_MODE_CATEGORIES.has(tool.category) ? undefined : "plan mode offers only read-only tools";
    case "coordinator":
      return tool.category === "orchestration"
        ? undefined
        : "coordinator mode offers only orchestration tools";
  }
}

interface BlanketDeny {
  covers: (toolName: string) => boolean;
  rule: SourcedRule;
}

/** Parses the deny rules once and keeps the blanket ones; scoped denies (`Bash(rm:*)`) never hide. */
function blanketDenies(denyRules: readonly SourcedRule[]): BlanketDeny[] {
  return denyRules.flatMap((rule): BlanketDeny[] => {
    if (rule.covers) return [{ covers: rule.covers, rule }];
    const parsed = parseRuleString(rule.rule);
    if (!isBlanket(parsed)) return [];
    const matches = toolNameMatcher(parsed.toolName);
    return [{ covers: matches, rule }];
  });
}

export interface FilterResult {
  kept: AnyTool[];
  hidden: HiddenTool[];
}

/** Applies, in order: the mode, blanket deny rules, and each tool's own `isEnabled()`. */
export function filterTools(
  tools: readonly AnyTool[],
  mode: PoolMode,
  denyRules: readonly SourcedRule[],
): FilterResult {
  const denies = blanketDenies(denyRules);
  const kept: AnyTool[] = [];
  const hidden: HiddenTool[] = [];
  for (const tool of tools) {
    const reason = modeHides(mode, tool) ?? denyReason(tool, denies) ??
      (tool.isEnabled() ? undefined : tool.disabledReason?.() ?? "the tool is not enabled here");
    if (reason) hidden.push({ name: tool.name, reason });
    else kept.push(tool);
  }
  return { kept, hidden };
}

function denyReason(tool: AnyTool, denies: readonly BlanketDeny[]): string | undefined {
  // Denying Bash denies every tool that runs shell commands.
  const hit = denies.find((d) => d.covers(tool.name) || (SHELL_TOOLS.has(tool.name) && d.covers("Bash")));
  return hit && (hit.rule.reason ?? `denied by ${hit.rule.rule} from ${hit.rule.source}`);
}
