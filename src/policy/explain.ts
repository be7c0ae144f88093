/** Decisions in words: the one line `toolrt check` prints, and the JSON shape of cli.md. */
import type { Decision, MatchedRule } from "./types.ts";

/** The `toolrt check --json` object (cli.md field names; extra fields are additions). */
export function decisionJson(decision: Decision): Record<string, unknown> {
  return {
    tool: decision.tool,
    decision: decision.decision,
    reason: decision.reason,
    matched: decision.matched,
    checks: decision.checks,
    ...(decision.catastrophic ? { catastrophic: decision.catastrophic } : {}),
    warnings: decision.warnings,
    suggestions: decision.suggestions,
    overridden: decision.overridden,
    untrusted: decision.untrusted,
    ...(decision.disabledDefaults ? { disabledDefaults: decision.disabledDefaults } : {}),
    sandboxed: decision.sandbox?.sandboxed ?? false,
    ...(decision.sandbox ? { sandbox: decision.sandbox } : {}),
  };
}

function ruleWords(rule: MatchedRule): string {
  return `${rule.rule} [${rule.id}] from ${rule.source} (${rule.file})`;
}

/** `deny  Bash: rm -rf / — ...` and, when useful, lines for lost and ignored allows and warnings. */
export function decisionLines(decision: Decision, subject: string): string[] {
  const lines = [`${decision.decision}: ${subject} — ${decision.reason}`];
  for (const rule of decision.matched) lines.push(`  decided by ${ruleWords(rule)}`);
  for (const rule of decision.overridden) lines.push(`  overridden: ${ruleWords(rule)}`);
  for (const rule of decision.untrusted) {
    lines.push(`  ignored: ${ruleWords(rule)} — the workspace is not trusted (toolrt trust)`);
  }
  for (const off of decision.disabledDefaults ?? []) {
    lines.push(
      `  disabled: default rule ${off.id} (${off.rule}, ${off.effect}) by ${off.source} (${off.disabledBy})`,
    );
  }
  lines.push(...sandboxLines(decision));
  for (const warning of decision.warnings) lines.push(`  warning: ${warning}`);
  if (decision.suggestions.length > 0) lines.push(`  to allow: ${decision.suggestions.join(", ")}`);
  return lines;
}

/** Where the call runs and what the sandbox did about it. */
function sandboxLines(decision: Decision): string[] {
  const sandbox = decision.sandbox;
  if (!sandbox?.sandboxed) return [];
  if (sandbox.autoAllowed) {
    return sandbox.needsPerson.length > 0
      ? sandbox.needsPerson.map((what) => `  sandbox will block: ${what}`)
      : ["  sandbox: anything beyond these limits fails, and the result names what a person could allow"];
  }
  if (decision.decision !== "ask" || sandbox.notAutoAllowed) return [];
  return ["  sandbox: not auto-allowed: the reason above holds inside the sandbox too"];
}
