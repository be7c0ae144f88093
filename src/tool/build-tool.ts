/**
 * `buildTool()` completes a tool definition with fail-closed defaults: a tool that does not say
 * otherwise is not read-only, not concurrency-safe, not destructive-exempt, and never auto-approved
 * (its permission check passes the decision to policy, which asks for anything not read-only).
 */
import { z } from "zod";
import type { ContentBlock } from "./messages.ts";
import type { JsonSchema, Tool, ToolRenderer } from "./types.ts";

type Required<Input, Output> = Pick<
  Tool<Input, Output>,
  "name" | "inputSchema" | "description" | "prompt" | "call"
>;

export type ToolDefinition<Input, Output> =
  & Required<Input, Output>
  & Partial<Omit<Tool<Input, Output>, keyof Required<Input, Output> | "render">>
  & { render?: Partial<ToolRenderer<Input, Output>> };

export const DEFAULT_MAX_RESULT_SIZE_CHARS = 50_000;

/** The defaults every tool starts from; exported so tests can pin them. */
export const TOOL_DEFAULTS = {
  aliases: [] as readonly string[],
  deprecatedAliases: [] as readonly string[],
  origin: { kind: "builtin" as const },
  category: "other" as const,
  validateInput: async () => ({ ok: true as const }),
  checkPermissions: async () => ({ behavior: "passthrough" as const }),
  isEnabled: () => true,
  isReadOnly: () => false,
  isDestructive: () => false,
  isConcurrencySafe: () => false,
  interruptBehavior: () => "block" as const,
  isTransparentWrapper: false,
  maxResultSizeChars: DEFAULT_MAX_RESULT_SIZE_CHARS,
  shouldDefer: false,
  alwaysLoad: false,
};

export function buildTool<Input, Output>(def: ToolDefinition<Input, Output>): Tool<Input, Output> {
  let schemaCache: JsonSchema | undefined;
  const { render, ...rest } = def;
  const tool: Tool<Input, Output> = {
    ...TOOL_DEFAULTS,
    inputJSONSchema: () => (schemaCache ??= zodToInputSchema(def.inputSchema)),
    toContent: (output) => defaultContent(output),
    ...rest,
    render: { ...defaultRenderer<Input, Output>(def.name), ...render },
  };
  return tool;
}

/** The JSON Schema of a zod input schema in the shape model APIs accept (no `$schema` key). */
function zodToInputSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  return json;
}

function defaultContent(output: unknown): ContentBlock[] {
  const text = typeof output === "string" ? output : JSON.stringify(output, null, 2);
  return [{ type: "text", text: text ?? "" }];
}

function summarizeInput(input: unknown): string {
  if (!input || typeof input !== "object") return "";
  const values = Object.values(input as Record<string, unknown>).filter((v) => typeof v === "string");
  const first = values[0] as string | undefined;
  if (!first) return "";
  return first.length > 80 ? `${first.slice(0, 77)}...` : first;
}

function defaultRenderer<Input, Output>(name: string): ToolRenderer<Input, Output> {
  return {
    toolUse: (input) => `${name}(${summarizeInput(input)})`,
    result: (output) => (typeof output === "string" ? output : JSON.stringify(output, null, 2)),
    rejected: (input, reason) => `${name}(${summarizeInput(input)}) rejected: ${reason}`,
    error: (message) => `Error: ${message}`,
  };
}
