/**
 * Turns one rule string into a matcher, once, at load. The tool part decides what the specifier
 * means: a Bash command pattern, a path glob, a WebFetch domain, an agent type, a skill name, or a
 * parameter rule (`Tool(field:value)`).
 */
import { optionRuleOf } from "../bash/command-meaning.ts";
import { type CommandPattern, compileCommandPattern } from "./command-pattern.ts";
import type { Condition } from "./logic.ts";
import { anchorPathPattern, compileGlob, type PathAnchors } from "./path-glob.ts";
import { isLiteralToolName, parseRuleString, toolNameMatcher } from "./rule-string.ts";
import type { Effect, MatchedRule } from "./types.ts";
import { EDIT_TOOLS, READ_TOOLS } from "./modes.ts";
import { wildcardRegex, wildcardSource } from "./wildcard.ts";

/** Where a compiled rule applies: the whole call, each Bash sub-command, or each path the call touches. */
export type RuleScope = "call" | "command" | "path";

export interface CompiledRule {
  meta: MatchedRule;
  reason?: string;
  /** False for allow rules of an untrusted workspace: they are reported, never applied. */
  trusted: boolean;
  scope: RuleScope;
  /** Which tool names the rule covers (call and command scope). */
  coversTool: (tool: string) => boolean;
  /** The rule's `tool` field: path rules apply only to these tools. */
  toolFilter?: (tool: string) => boolean;
  /** Exact names the rule covers, for indexing; undefined when it is a glob. */
  toolNames?: string[];
  command?: CommandPattern;
  /**
   * `prefix`: the glob's literal directory part; a path not starting with it cannot match.
   * `glob`: the absolute glob `regex` was compiled from. `except`: the paths the rule leaves alone
   * (its `except` field), each only itself, not what lies below it.
   */
  path?: { regex: RegExp; glob: string; prefix: string; family: "read" | "edit"; except?: RegExp[] };
  /** A test of the call's input (parameter, domain, agent type, skill). */
  inputTest?: (input: Record<string, unknown>) => boolean;
  when?: Condition;
}

/** A rule that loads but is never consulted, with the reason to tell the author. */
export class RuleSkipped extends Error {
  override name = "RuleSkipped";
}

export interface RuleOrigin extends Omit<MatchedRule, "rule" | "effect"> {
  effect: Effect;
  anchors: PathAnchors;
  trusted: boolean;
  reason?: string;
  when?: Condition;
}

/** Bash input fields a parameter rule may name; `command` itself is matched by command patterns. */
const BASH_PARAMETERS = new Set(["timeout", "description", "run_in_background", "dangerouslyDisableSandbox"]);
const NEVER_CONSULTED: Record<string, string> = { Write: "Edit", NotebookEdit: "Edit", Glob: "Read" };
const PARAMETER = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$/s;

/** Compiles `raw`; throws RuleSyntaxError for bad syntax and RuleSkipped for rules never consulted. */
export function compileRule(raw: string, origin: RuleOrigin): CompiledRule {
  const parsed = parseRuleString(raw);
  const { toolName, specifier } = parsed;
  const base = {
    meta: { source: origin.source, file: origin.file, rule: raw, effect: origin.effect, id: origin.id },
    reason: origin.reason,
    trusted: origin.trusted,
    when: origin.when,
  };
  checkToolGlob(toolName, origin.effect);
  if (specifier === undefined) return { ...base, scope: "call", ...toolCoverage(toolName) };
  if (toolName.includes("*")) {
    throw new RuleSkipped(`a tool-name glob takes no specifier; write ${toolName} alone`);
  }
  const replacement = NEVER_CONSULTED[toolName];
  if (replacement) {
    throw new RuleSkipped(`${toolName}(...) rules are never consulted; write ${replacement}(...) instead`);
  }
  const exact = { coversTool: (tool: string) => tool === toolName, toolNames: [toolName] };
  const parameter = PARAMETER.exec(specifier);
  const isParameter = parameter !== null && !specifier.trimEnd().endsWith(":*") &&
    (toolName === "Bash"
      ? BASH_PARAMETERS.has(parameter[1]!)
      : !["Read", "Edit", "WebFetch"].includes(toolName));
  if (isParameter && parameter) {
    if (origin.effect === "allow") throw new RuleSkipped("parameter rules (field:value) only deny or ask");
    return { ...base, scope: "call", ...exact, inputTest: parameterTest(parameter[1]!, parameter[2]!) };
  }
  switch (toolName) {
    case "Bash":
      return { ...base, scope: "command", ...exact, command: bashPattern(specifier) };
    case "Read":
    case "Edit": {
      const glob = anchorPathPattern(specifier.trim(), origin.anchors, origin.effect);
      const family = toolName === "Read" ? "read" : "edit";
      // A case-insensitive file system opens `.ENV` as `.env`: deny and ask hold for every case.
      const regex = compileGlob(glob, origin.effect !== "allow");
      return { ...base, scope: "path", ...exact, path: { regex, glob, prefix: literalDir(glob), family } };
    }
    case "WebFetch":
      return { ...base, scope: "call", ...exact, inputTest: domainTest(specifier) };
    case "Agent":
    case "Task":
      return { ...base, scope: "call", ...agentCoverage(), inputTest: agentTypeTest(specifier.trim()) };
    case "Skill": {
      const pattern = compileCommandPattern(specifier);
      return { ...base, scope: "call", ...exact, inputTest: (input) => pattern.regex.test(skillText(input)) };
    }
    default:
      throw new RuleSkipped(`${toolName} takes no specifier except parameter rules (field:value)`);
  }
}

function bashPattern(specifier: string): CommandPattern {
  const pattern = compileCommandPattern(specifier);
  const optionRule = optionRuleOf(specifier);
  return optionRule ? { ...pattern, optionRule } : pattern;
}

/** The directory part of a glob before its first wildcard (`/w/src` for `/w/src/**`). */
function literalDir(glob: string): string {
  const wild = glob.search(/[*?[]/);
  const literal = wild === -1 ? glob : glob.slice(0, wild);
  return literal.slice(0, Math.max(0, literal.lastIndexOf("/")));
}

function checkToolGlob(toolName: string, effect: Effect): void {
  if (effect !== "allow" || !toolName.includes("*")) return;
  const literalServer = /^mcp__[^*]+__/.exec(toolName);
  if (!literalServer || literalServer[0].includes("*")) {
    throw new RuleSkipped(
      "allow rules may glob tool names only after a literal mcp__<server>__ (e.g. mcp__github__get_*)",
    );
  }
}

/** `Read` covers the read tools, `Edit` the edit tools, `Agent` its old name `Task`; others by name. */
function toolCoverage(toolName: string): Pick<CompiledRule, "coversTool" | "toolNames"> {
  if (toolName === "Read") return { coversTool: (t) => READ_TOOLS.has(t), toolNames: [...READ_TOOLS] };
  if (toolName === "Edit") return { coversTool: (t) => EDIT_TOOLS.has(t), toolNames: [...EDIT_TOOLS] };
  if (toolName === "Agent" || toolName === "Task") return agentCoverage();
  if (!isLiteralToolName(toolName)) return { coversTool: toolNameMatcher(toolName) };
  return { coversTool: (t) => t === toolName, toolNames: [toolName] };
}

function agentCoverage(): Pick<CompiledRule, "coversTool" | "toolNames"> {
  return { coversTool: (t) => t === "Agent" || t === "Task", toolNames: ["Agent", "Task"] };
}

function parameterTest(field: string, value: string): (input: Record<string, unknown>) => boolean {
  const regex = wildcardRegex(value);
  return (input) => {
    const actual = input[field];
    if (actual === undefined || actual === null || typeof actual === "object") return false;
    return regex.test(String(actual));
  };
}

/** `domain:example.com`, `domain:*.example.com` (subdomains, not the apex), `domain:*`. */
function domainTest(specifier: string): (input: Record<string, unknown>) => boolean {
  const match = /^\s*domain\s*:\s*(\S+)\s*$/.exec(specifier);
  if (!match) throw new RuleSkipped("WebFetch takes domain:HOST (e.g. WebFetch(domain:example.com))");
  const domain = match[1]!.toLowerCase().replace(/\.$/, "");
  if (domain === "*") return (input) => hostOf(input.url) !== undefined;
  const anySubdomain = domain.startsWith("*.");
  const labels = (anySubdomain ? domain.slice(2) : domain).split(".").map((label) =>
    wildcardSource(label, "[^.]*")
  );
  const regex = new RegExp(`^${anySubdomain ? "(?:[^.]+\\.)+" : ""}${labels.join("\\.")}$`);
  return (input) => {
    const host = hostOf(input.url);
    return host !== undefined && regex.test(host);
  };
}

function hostOf(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return undefined;
  }
}

function agentTypeTest(type: string): (input: Record<string, unknown>) => boolean {
  return (input) =>
    (typeof input.subagent_type === "string" ? input.subagent_type : "general-purpose") === type;
}

function skillText(input: Record<string, unknown>): string {
  const skill = typeof input.skill === "string" ? input.skill : "";
  return typeof input.args === "string" && input.args !== "" ? `${skill} ${input.args}` : skill;
}
