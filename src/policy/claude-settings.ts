/**
 * Claude Code settings as a policy source (`--claude-settings`): `permissions.allow|ask|deny` of
 * the user, project and local settings files, anchored as Claude Code anchors them.
 */
import { FileProblem, type JsonDocument, parseJsonDocument } from "./json-position.ts";
import type { PathAnchors } from "./path-glob.ts";
import { compileRuleList, type ListedRule } from "./rule-list.ts";
import type { CompiledRule } from "./compile-rule.ts";

export interface ClaudeSettingsResult {
  rules: CompiledRule[];
  errors: FileProblem[];
  warnings: FileProblem[];
}

const LISTS = ["allow", "ask", "deny"] as const;

export function compileClaudeSettings(
  file: string,
  text: string,
  anchors: PathAnchors,
  trusted: boolean,
): ClaudeSettingsResult {
  let doc: JsonDocument;
  try {
    doc = parseJsonDocument(file, text);
  } catch (error) {
    if (error instanceof FileProblem) return { rules: [], errors: [error], warnings: [] };
    throw error;
  }
  const permissions = (doc.value as { permissions?: unknown } | null)?.permissions;
  if (permissions === undefined) return { rules: [], errors: [], warnings: [] };
  if (permissions === null || typeof permissions !== "object" || Array.isArray(permissions)) {
    return {
      rules: [],
      errors: [doc.problemAt(["permissions"], '"permissions" must be an object')],
      warnings: [],
    };
  }
  const listed: ListedRule[] = [];
  const paths: (string | number)[][] = [];
  const errors: FileProblem[] = [];
  for (const effect of LISTS) {
    const list = (permissions as Record<string, unknown>)[effect];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.some((r) => typeof r !== "string")) {
      errors.push(
        doc.problemAt(["permissions", effect], `permissions.${effect} must be a list of rule strings`),
      );
      continue;
    }
    list.forEach((rule: string, i) => {
      listed.push({ rule, effect, id: `permissions.${effect}[${i}]` });
      paths.push(["permissions", effect, i]);
    });
  }
  const { rules, problems } = compileRuleList(listed, { source: "claude", file, anchors, trusted });
  const warnings: FileProblem[] = [];
  for (const problem of problems) {
    const at = doc.problemAt(paths[problem.index]!, problem.message, { extraColumns: problem.column ?? 0 });
    (problem.skipped ? warnings : errors).push(at);
  }
  return { rules, errors, warnings };
}
