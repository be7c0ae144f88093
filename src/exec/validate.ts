/**
 * Stage 2: schema validation (zod, with a coercion retry for the string-typed numbers and booleans
 * models often send), then the tool's own `validateInput`.
 */
import type { z } from "zod";
import type { AnyTool, ToolContext } from "../tool/types.ts";

export type ValidationOutcome =
  | { ok: true; input: unknown }
  /** `schema`: the input does not fit the tool's schema; `tool`: the tool's own check refused it. */
  | { ok: false; message: string; behavior: "deny" | "ask"; by: "schema" | "tool" };

export async function validateCall(
  tool: AnyTool,
  rawInput: unknown,
  ctx: ToolContext,
): Promise<ValidationOutcome> {
  const parsed = parseWithCoercion(tool.inputSchema, rawInput);
  if (!parsed.success) {
    return { ok: false, behavior: "deny", by: "schema", message: formatSchemaError(tool.name, parsed.error) };
  }
  const own = await tool.validateInput(parsed.data, ctx);
  if (!own.ok) return { ok: false, behavior: own.behavior ?? "deny", by: "tool", message: own.message };
  return { ok: true, input: parsed.data };
}

function parseWithCoercion(schema: z.ZodType, input: unknown) {
  const first = schema.safeParse(input);
  if (first.success || !isPlainObject(input)) return first;
  const coerced = coerceStrings(input, first.error.issues);
  return coerced === input ? first : schema.safeParse(coerced);
}

/** Turns `"5"` into 5 and `"true"` into true where the schema expected a number or boolean. */
function coerceStrings(input: Record<string, unknown>, issues: z.core.$ZodIssue[]): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const issue of issues) {
    if (issue.code !== "invalid_type" || issue.path.length !== 1) continue;
    const key = issue.path[0] as string;
    const value = input[key];
    if (typeof value !== "string") continue;
    const converted = issue.expected === "number" && value.trim() !== "" && Number.isFinite(Number(value))
      ? Number(value)
      : issue.expected === "boolean" && (value === "true" || value === "false")
      ? value === "true"
      : undefined;
    if (converted === undefined) continue;
    copy ??= { ...input };
    copy[key] = converted;
  }
  return copy ?? input;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One line per problem, naming the parameter, what was expected and what arrived. */
function formatSchemaError(toolName: string, error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const where = issue.path.length ? issue.path.join(".") : "input";
    return `- ${where}: ${issue.message}`;
  });
  return `InputValidationError: ${toolName} was called with invalid input:\n${lines.join("\n")}`;
}
