/**
 * One policy file from text to compiled rules: strict JSON, the schema, every rule string and
 * every `when`, each problem reported at file:line:column with what is expected.
 */
import type { z } from "zod";
import type { CompiledRule } from "./compile-rule.ts";
import { disableProblem } from "./defaults.ts";
import { compileRuleList } from "./rule-list.ts";
import { FileProblem, type JsonDocument, type JsonPath, parseJsonDocument } from "./json-position.ts";
import { compileCondition, type Condition, ConditionError } from "./logic.ts";
import { compileGlob, type PathAnchors } from "./path-glob.ts";
import type { LoadedFile } from "./policy.ts";
import { isLiteralToolName, toolNameMatcher } from "./rule-string.ts";
import {
  policyFileSchema,
  type PolicyFileSpec,
  policyRuleSchema,
  type PolicyRuleSpec,
  policyTestSchema,
  sandboxLimitsSchema,
  sandboxSectionSchema,
  toolLoadingSchema,
} from "./schema.ts";
import type { SourceName } from "./types.ts";

export interface FileContext {
  source: SourceName;
  anchors: PathAnchors;
  /** False when allow rules must not apply (project or local file of an untrusted workspace). */
  trusted: boolean;
}

export interface CompiledFile {
  loaded?: LoadedFile;
  spec?: PolicyFileSpec;
  errors: FileProblem[];
  warnings: FileProblem[];
}

const MANAGED_ONLY = ["lock", "disableBypassPermissions", "allowedPlugins", "allowDisable"] as const;

export function compilePolicyText(file: string, text: string, context: FileContext): CompiledFile {
  let doc: JsonDocument;
  try {
    doc = parseJsonDocument(file, text);
  } catch (error) {
    if (error instanceof FileProblem) return { errors: [error], warnings: [] };
    throw error;
  }
  if (doc.value === null || typeof doc.value !== "object" || Array.isArray(doc.value)) {
    return {
      errors: [doc.problemAt([], 'expected a JSON object with "rules" (and optionally "tests")')],
      warnings: [],
    };
  }
  const parsed = policyFileSchema.safeParse(doc.value);
  if (!parsed.success) {
    return { errors: parsed.error.issues.flatMap((i) => schemaProblems(doc, i)), warnings: [] };
  }
  const spec = parsed.data;
  const errors: FileProblem[] = [];
  const warnings: FileProblem[] = [];
  if (context.source !== "managed") {
    for (const key of MANAGED_ONLY) {
      if (spec[key] !== undefined) {
        warnings.push(doc.problemAt([key], `"${key}" only takes effect in the managed policy; ignored here`, {
          atKey: true,
        }));
      }
    }
  }
  if ((context.source === "project" || context.source === "local") && spec.telemetry !== undefined) {
    warnings.push(doc.problemAt(
      ["telemetry"],
      '"telemetry" is read from managed, user and --policy files only (a workspace does not choose where its calls are reported); ignored here',
      { atKey: true },
    ));
  }
  const rules: CompiledRule[] = [];
  const seen = new Set<string>();
  spec.rules.forEach((rule, index) => {
    if (seen.has(rule.id)) {
      errors.push(
        doc.problemAt(["rules", index, "id"], `duplicate rule id "${rule.id}"; ids must be unique in a file`),
      );
    }
    seen.add(rule.id);
    rules.push(...compileRuleSpec(doc, rule, index, context, errors, warnings));
  });
  for (const key of ["disable", "allowDisable"] as const) {
    const ids = spec[key];
    if (!Array.isArray(ids)) continue;
    ids.forEach((id, i) => {
      const problem = disableProblem(id);
      if (problem) errors.push(doc.problemAt([key, i], `${key}[${i}]: ${problem}`));
    });
  }
  const testLines = spec.tests.map((_, i) => doc.problemAt(["tests", i], "").line);
  if (spec.hooks && !context.trusted) {
    warnings.push(
      doc.problemAt(["hooks"], "hooks of an untrusted workspace do not run; trust it with `toolrt trust`", {
        atKey: true,
      }),
    );
  }
  if (errors.length > 0) return { errors, warnings, spec };
  const hooks = context.trusted ? spec.hooks : undefined;
  return {
    loaded: {
      source: context.source,
      file,
      rules,
      tests: spec.tests,
      testLines,
      ...(hooks ? { hooks } : {}),
      ...(spec.tools ? { toolLoading: spec.tools } : {}),
      ...(spec.disable ? { disable: spec.disable } : {}),
    },
    spec,
    errors,
    warnings,
  };
}

function compileRuleSpec(
  doc: JsonDocument,
  rule: PolicyRuleSpec,
  index: number,
  context: FileContext,
  errors: FileProblem[],
  warnings: FileProblem[],
): CompiledRule[] {
  const at: JsonPath = ["rules", index];
  let when: Condition | undefined;
  if (rule.when !== undefined) {
    try {
      when = compileCondition(rule.when);
    } catch (error) {
      if (!(error instanceof ConditionError)) throw error;
      errors.push(
        doc.problemAt([...at, "when", ...error.path], `bad "when": ${error.message}`, { atKey: error.atKey }),
      );
      return [];
    }
  }
  const toolFilter = rule.tool === undefined ? undefined : toolMatcher(rule.tool);
  const trusted = context.trusted || rule.effect !== "allow";
  const extras = { ...(rule.reason !== undefined ? { reason: rule.reason } : {}), ...(when ? { when } : {}) };
  const matches = rule.match === undefined ? [] : typeof rule.match === "string" ? [rule.match] : rule.match;
  const matchPath = (j: number): JsonPath =>
    typeof rule.match === "string" ? [...at, "match"] : [...at, "match", j];
  if (matches.length === 0 && toolFilter) {
    const names = ([] as string[]).concat(rule.tool!);
    return [{
      meta: {
        source: context.source,
        file: doc.file,
        rule: names.join(", "),
        effect: rule.effect,
        id: rule.id,
      },
      trusted,
      scope: "call",
      coversTool: toolFilter,
      ...(names.every(isLiteralToolName) ? { toolNames: names } : {}),
      ...extras,
    }];
  }
  const listed = matches.map((raw) => ({ rule: raw, effect: rule.effect, id: rule.id, ...extras }));
  const compiled = compileRuleList(listed, { ...context, file: doc.file, trusted });
  for (const problem of compiled.problems) {
    const raw = matches[problem.index]!;
    const indent = raw.length - raw.trimStart().length;
    const extraColumns = problem.column === undefined ? 0 : indent + problem.column;
    const found = doc.problemAt(matchPath(problem.index), problem.message, { extraColumns });
    (problem.skipped ? warnings : errors).push(found);
  }
  const rules = rule.except === undefined
    ? compiled.rules
    : withExceptions(doc, rule, index, compiled.rules, context, errors);
  return toolFilter ? rules.map((r) => restrictTools(r, toolFilter)) : rules;
}

/** Path rules that leave the paths of `except` alone; `except` on any other rule is an error. */
function withExceptions(
  doc: JsonDocument,
  rule: PolicyRuleSpec,
  index: number,
  rules: CompiledRule[],
  context: FileContext,
  errors: FileProblem[],
): CompiledRule[] {
  const written = typeof rule.except === "string" ? [rule.except] : rule.except!;
  const at = (j: number): JsonPath =>
    typeof rule.except === "string" ? ["rules", index, "except"] : ["rules", index, "except", j];
  if (rules.some((r) => r.scope !== "path")) {
    errors.push(
      doc.problemAt(
        ["rules", index, "except"],
        '"except" applies to path rules only (Read(...), Edit(...))',
        {
          atKey: true,
        },
      ),
    );
    return rules;
  }
  const listed = written.map((raw) => ({ rule: raw, effect: rule.effect, id: rule.id }));
  const compiled = compileRuleList(listed, { ...context, file: doc.file, trusted: true });
  for (const problem of compiled.problems) errors.push(doc.problemAt(at(problem.index), problem.message));
  const except = compiled.rules.flatMap((r, j) => {
    // `.env.example` leaves that file alone, not a `.env` inside a directory of that name.
    if (r.path) return [compileGlob(r.path.glob, r.path.regex.ignoreCase, false)];
    errors.push(doc.problemAt(at(j), "expected a path rule such as Read(.env.example)"));
    return [];
  });
  return rules.map((r) => ({ ...r, path: { ...r.path!, except } }));
}

function toolMatcher(tool: string | string[]): (name: string) => boolean {
  const matchers = ([] as string[]).concat(tool).map(toolNameMatcher);
  return (name) => matchers.some((m) => m(name));
}

function restrictTools(rule: CompiledRule, filter: (name: string) => boolean): CompiledRule {
  return {
    ...rule,
    coversTool: (name) => rule.coversTool(name) && filter(name),
    ...(rule.toolNames ? { toolNames: rule.toolNames.filter(filter) } : {}),
    toolFilter: filter,
  };
}

function schemaProblems(doc: JsonDocument, issue: z.core.$ZodIssue): FileProblem[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) =>
      doc.problemAt([...path, key], `unknown field "${key}"${where(path)}; ${expectedFields(path)}`, {
        atKey: true,
      })
    );
  }
  return [doc.problemAt(path, `${describePath(path)}: ${issue.message}`)];
}

function where(path: JsonPath): string {
  return path.length === 0 ? "" : ` in ${describePath(path)}`;
}

/** The fields the schema allows where an unknown one was found, read from the schema itself. */
function expectedFields(path: JsonPath): string {
  const sections: Record<string, { shape: object }> = {
    rules: policyRuleSchema,
    tests: policyTestSchema,
    sandbox: sandboxSectionSchema,
    "sandbox.limits": sandboxLimitsSchema,
    tools: toolLoadingSchema,
  };
  const named = path.filter((p) => typeof p === "string").join(".");
  const section = sections[named] ?? (typeof path[0] === "string" ? sections[path[0]] : undefined);
  return `expected one of: ${Object.keys((section ?? policyFileSchema).shape).join(", ")}`;
}

function describePath(path: JsonPath): string {
  if (path.length === 0) return "the policy";
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}
