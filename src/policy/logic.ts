/**
 * `when` conditions: JSON-Logic compiled once at load by json-logic-engine, with a few operations
 * for tool calls. Standard operations keep json-logic-js semantics.
 *
 * Custom operations (documented in policy/README.md):
 * - `{"glob": [pattern, path]}`: gitignore-style glob on an absolute path (`**` spans directories).
 * - `{"inside": [path, dir]}`: path is dir or below it.
 * - `{"inWorkspace": [path]}`: path is inside the workspace root or an additional directory.
 * - `{"prefix": [value, start]}`: a string starts with a string, or a list (argv) starts with a list.
 * - `{"host": [url]}`: the lower-case hostname of a URL, null when it is not one.
 */
import { LogicEngine } from "json-logic-engine";
import { isInside } from "../tool/paths.ts";
import { compileGlob } from "./path-glob.ts";
import type { JsonPath } from "./json-position.ts";

export type Condition = (facts: unknown) => boolean;

const globCache = new Map<string, RegExp>();

function cachedGlob(pattern: string): RegExp {
  let regex = globCache.get(pattern);
  if (!regex) globCache.set(pattern, regex = compileGlob(pattern));
  return regex;
}

/** The facts object at the top of the evaluation, also from inside `some`/`all` iterations. */
function rootFacts(context: unknown, above: unknown[]): { cwd?: unknown; additionalDirs?: unknown } {
  const candidates = [context, ...above.flat(Infinity)];
  const found = candidates.find((c) => c !== null && typeof c === "object" && "cwd" in c);
  return (found ?? {}) as { cwd?: unknown; additionalDirs?: unknown };
}

const CUSTOM_OPERATIONS: Record<string, (args: unknown[], context: unknown, above: unknown[]) => unknown> = {
  glob: ([pattern, path]) =>
    typeof pattern === "string" && typeof path === "string" && cachedGlob(pattern).test(path),
  inside: ([path, dir]) => typeof path === "string" && typeof dir === "string" && isInside(path, dir),
  inWorkspace: ([path], context, above) => {
    if (typeof path !== "string") return false;
    const facts = rootFacts(context, above);
    const dirs = [facts.cwd, ...(Array.isArray(facts.additionalDirs) ? facts.additionalDirs : [])];
    return dirs.some((dir) => typeof dir === "string" && isInside(path, dir));
  },
  prefix: ([value, start]) => {
    if (typeof value === "string" && typeof start === "string") return value.startsWith(start);
    if (!Array.isArray(value) || !Array.isArray(start)) return false;
    return start.length <= value.length && start.every((word, i) => value[i] === word);
  },
  host: ([url]) => {
    if (typeof url !== "string") return null;
    try {
      return new URL(url).hostname.toLowerCase().replace(/\.$/, "");
    } catch {
      return null;
    }
  },
};

const CUSTOM_OPERATION_NAMES = Object.keys(CUSTOM_OPERATIONS);

function createEngine(): LogicEngine {
  const engine = new LogicEngine();
  for (const [name, method] of Object.entries(CUSTOM_OPERATIONS)) {
    engine.addMethod(
      name,
      (args: unknown, context: unknown, above: unknown[]) =>
        method(Array.isArray(args) ? args : [args], context, above ?? []),
    );
  }
  return engine;
}

const engine = createEngine();

/** A `when` that cannot compile: `path` is relative to the `when` value. */
export class ConditionError extends Error {
  constructor(readonly path: JsonPath, detail: string, readonly atKey = false) {
    super(detail);
    this.name = "ConditionError";
  }
}

/** Compiles a `when` expression once; throws ConditionError pointing at the offending operation. */
export function compileCondition(logic: unknown): Condition {
  checkOperations(logic, []);
  let built: (facts: unknown) => unknown;
  try {
    built = engine.build(logic) as (facts: unknown) => unknown;
  } catch (error) {
    throw new ConditionError(findFailingNode(logic, []) ?? [], describeBuildError(error));
  }
  return (facts) => {
    try {
      return Boolean(engine.truthy(built(facts)));
    } catch {
      // A condition that throws cannot say "yes": the rule does not match.
      return false;
    }
  };
}

function checkOperations(logic: unknown, path: JsonPath): void {
  if (Array.isArray(logic)) {
    logic.forEach((item, i) => checkOperations(item, [...path, i]));
    return;
  }
  if (logic === null || typeof logic !== "object") return;
  const keys = Object.keys(logic);
  if (keys.length !== 1) {
    throw new ConditionError(
      path,
      `an operation is an object with exactly one key, found ${keys.length}: ${JSON.stringify(keys)}`,
    );
  }
  const op = keys[0]!;
  if (!(op in engine.methods)) {
    throw new ConditionError(
      [...path, op],
      `unknown operation ${JSON.stringify(op)}; expected a JSON-Logic operation or one of ${
        CUSTOM_OPERATION_NAMES.join(", ")
      }`,
      true,
    );
  }
  if (op !== "preserve") checkOperations((logic as Record<string, unknown>)[op], [...path, op]);
}

/** The deepest sub-expression that fails to build, so the message points at it. */
function findFailingNode(logic: unknown, path: JsonPath): JsonPath | undefined {
  if (logic === null || typeof logic !== "object") return undefined;
  const entries = Array.isArray(logic) ? logic.map((v, i) => [i, v] as const) : Object.entries(logic);
  for (const [key, child] of entries) {
    const deeper = findFailingNode(child, [...path, key]);
    if (deeper) return deeper;
  }
  if (Array.isArray(logic)) return undefined;
  try {
    engine.build(logic);
    return undefined;
  } catch {
    return path;
  }
}

function describeBuildError(error: unknown): string {
  const type = error && typeof error === "object" && "type" in error ? String(error.type) : String(error);
  if (type === "Invalid Arguments") {
    return "invalid arguments for this operation; see the JSON-Logic operation's arity";
  }
  return `invalid JSON-Logic expression: ${type}`;
}
