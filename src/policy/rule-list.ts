/** Rule strings without a policy file around them: `--allow/--ask/--deny`, session grants, Claude Code settings. */
import { type CompiledRule, compileRule, RuleSkipped } from "./compile-rule.ts";
import type { Condition } from "./logic.ts";
import type { PathAnchors } from "./path-glob.ts";
import { RuleSyntaxError } from "./rule-string.ts";
import type { Effect, SourceName } from "./types.ts";

export interface ListedRule {
  rule: string;
  effect: Effect;
  id: string;
  reason?: string;
  when?: Condition;
}

export interface ListContext {
  source: SourceName;
  file: string;
  anchors: PathAnchors;
  trusted: boolean;
}

export interface ListProblem {
  index: number;
  /** 1-based column inside the rule string (syntax errors). */
  column?: number;
  message: string;
  skipped: boolean;
}

export function compileRuleList(rules: ListedRule[], context: ListContext): {
  rules: CompiledRule[];
  problems: ListProblem[];
} {
  const compiled: CompiledRule[] = [];
  const problems: ListProblem[] = [];
  rules.forEach((listed, index) => {
    try {
      compiled.push(compileRule(listed.rule, {
        source: context.source,
        file: context.file,
        id: listed.id,
        effect: listed.effect,
        anchors: context.anchors,
        trusted: context.trusted || listed.effect !== "allow",
        ...(listed.reason !== undefined ? { reason: listed.reason } : {}),
        ...(listed.when ? { when: listed.when } : {}),
      }));
    } catch (error) {
      if (error instanceof RuleSyntaxError) {
        problems.push({ index, column: error.column, message: error.message, skipped: false });
      } else if (error instanceof RuleSkipped) {
        problems.push({
          index,
          message: `rule ${JSON.stringify(listed.rule)} is skipped: ${error.message}`,
          skipped: true,
        });
      } else throw error;
    }
  });
  return { rules: compiled, problems };
}
