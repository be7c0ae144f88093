import { wildcardRegex } from "./wildcard.ts";

/**
 * Rule strings in Claude Code's grammar: `Tool`, `Tool(specifier)`, `Tool(*)` (same as `Tool`),
 * tool-name globs (`mcp__*`, `*`) and MCP server rules (`mcp__github` covers every tool of it).
 */

export interface RuleString {
  /** The tool part, possibly a glob (`mcp__github__get_*`). */
  toolName: string;
  /** What is inside the parentheses; undefined for a bare tool rule. */
  specifier?: string;
  raw: string;
}

export class RuleSyntaxError extends Error {
  constructor(readonly rule: string, readonly column: number, detail: string) {
    super(`bad rule ${JSON.stringify(rule)} at column ${column}: ${detail}`);
    this.name = "RuleSyntaxError";
  }
}

const TOOL_NAME = /^[A-Za-z0-9_*.-]+$/;

/** Parses one rule string; throws RuleSyntaxError saying what is wrong and where. */
export function parseRuleString(raw: string): RuleString {
  const rule = raw.trim();
  if (rule === "") throw new RuleSyntaxError(raw, 1, "empty rule; expected `Tool` or `Tool(specifier)`");
  const open = rule.indexOf("(");
  if (open === -1) {
    if (rule.includes(")")) throw new RuleSyntaxError(raw, rule.indexOf(")") + 1, "`)` without `(`");
    checkToolName(raw, rule, 0);
    return { toolName: rule, raw };
  }
  if (!rule.endsWith(")")) {
    throw new RuleSyntaxError(raw, rule.length + 1, "missing closing `)`; expected `Tool(specifier)`");
  }
  const toolName = rule.slice(0, open);
  checkToolName(raw, toolName, 0);
  const specifier = rule.slice(open + 1, -1);
  if (specifier.trim() === "") {
    throw new RuleSyntaxError(raw, open + 2, "empty specifier; write the bare tool name instead");
  }
  if (specifier === "*") return { toolName, raw };
  return { toolName, specifier, raw };
}

function checkToolName(raw: string, name: string, offset: number): void {
  if (name === "") throw new RuleSyntaxError(raw, offset + 1, "missing tool name before `(`");
  if (!TOOL_NAME.test(name)) {
    const bad = [...name].findIndex((c) => !/[A-Za-z0-9_*.-]/.test(c));
    throw new RuleSyntaxError(
      raw,
      offset + bad + 1,
      `unexpected character ${JSON.stringify(name[bad])} in tool name`,
    );
  }
}

/**
 * The tool names the tool part of a rule covers, compiled once: `mcp__server` covers
 * `mcp__server__anything`; globs must match the whole name.
 */
export function toolNameMatcher(ruleToolName: string): (toolName: string) => boolean {
  const isServerRule = ruleToolName.startsWith("mcp__") && !ruleToolName.slice(5).includes("__");
  if (!ruleToolName.includes("*")) {
    return (name) => name === ruleToolName || (isServerRule && name.startsWith(`${ruleToolName}__`));
  }
  const glob = wildcardRegex(ruleToolName);
  return (name) => glob.test(name) || (isServerRule && name.startsWith(`${ruleToolName}__`));
}

/** A tool part that names exactly one tool: no glob, not a whole MCP server. */
export function isLiteralToolName(ruleToolName: string): boolean {
  const isServerRule = ruleToolName.startsWith("mcp__") && !ruleToolName.slice(5).includes("__");
  return !ruleToolName.includes("*") && !isServerRule;
}

/** Does the tool part of a rule cover this tool name? */
export function ruleCoversToolName(ruleToolName: string, toolName: string): boolean {
  return toolNameMatcher(ruleToolName)(toolName);
}

/** A blanket rule (no specifier) removes or governs the whole tool, not just some calls. */
export function isBlanket(rule: RuleString): boolean {
  return rule.specifier === undefined;
}
