/**
 * Bash command patterns (claude-code-compat.md §2.2): `npm run build` is exact; `*` matches any
 * characters including spaces; a trailing ` *` is a word boundary whose tail is optional
 * (`ls *` matches `ls` and `ls -la`, not `lsof`); the legacy `prefix:*` means `prefix *`.
 */
import type { OptionRule } from "../bash/command-meaning.ts";
import { wildcardSource } from "./wildcard.ts";

export interface CommandPattern {
  regex: RegExp;
  /** The same pattern as `*`-globs, one per form it takes (`ls *` is `ls` or `ls *`). */
  globs: string[];
  /** A pattern with a wildcard: such allow rules never cover commands marked `noAutoAllow`. */
  isPrefix: boolean;
  /** Bash rules of plain words holding options: deny and ask read them through the spec (`command-meaning.ts`). */
  optionRule?: OptionRule;
}

export function compileCommandPattern(specifier: string): CommandPattern {
  let pattern = specifier.trim();
  if (pattern.endsWith(":*")) pattern = `${pattern.slice(0, -2).trimEnd()} *`;
  const optionalTail = pattern.endsWith(" *") && pattern.length > 2;
  const body = optionalTail ? pattern.slice(0, -2) : pattern;
  const source = wildcardSource(body);
  return {
    regex: new RegExp(`^${source}${optionalTail ? "(?: .*)?" : ""}$`, "s"),
    globs: optionalTail ? [body, `${body} *`] : [pattern],
    isPrefix: pattern.includes("*"),
  };
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S*\s+/;

/** Deny and ask rules match past any leading `NAME=value` assignments. */
export function stripAssignments(commandText: string): string {
  let text = commandText;
  while (ASSIGNMENT.test(text)) text = text.replace(ASSIGNMENT, "");
  return text;
}
