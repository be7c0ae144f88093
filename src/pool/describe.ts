/** The tool-level view of a tool for listings (`toolrt tools`), in the CLI contract's field names. */
import type { AnyTool, JsonSchema } from "../tool/types.ts";
import type { DeferralDecision } from "./deferral.ts";

export interface ToolDescription {
  name: string;
  origin: AnyTool["origin"]["kind"];
  server?: string;
  deferred: boolean;
  /** Why the tool is or is not deferred. */
  deferReason: string;
  alwaysLoad: boolean;
  readOnly: boolean;
  concurrencySafe: boolean;
  destructive: boolean;
  category: AnyTool["category"];
  aliases: string[];
  description: string;
  inputSchema: JsonSchema;
}

/**
 * Per-input answers asked without an input: a tool answers for its empty input, and a tool that
 * cannot answer without one counts as the fail-closed `false`.
 */
function answerWithoutInput(ask: (input: unknown) => boolean): boolean {
  try {
    return ask({}) === true;
  } catch {
    return false;
  }
}

/** The tool's per-input answers asked at the tool level (see `answerWithoutInput`). */
export function toolLevelAnswers(
  tool: AnyTool,
): { readOnly: boolean; concurrencySafe: boolean; destructive: boolean } {
  return {
    readOnly: answerWithoutInput((i) => tool.isReadOnly(i)),
    concurrencySafe: answerWithoutInput((i) => tool.isConcurrencySafe(i)),
    destructive: answerWithoutInput((i) => tool.isDestructive(i)),
  };
}

export function describeTool(tool: AnyTool, deferral: DeferralDecision): ToolDescription {
  return {
    name: tool.name,
    origin: tool.origin.kind,
    ...(tool.origin.server ? { server: tool.origin.server } : {}),
    deferred: deferral.deferred,
    deferReason: deferral.reason,
    alwaysLoad: tool.alwaysLoad,
    ...toolLevelAnswers(tool),
    category: tool.category,
    aliases: [...tool.aliases],
    description: tool.description,
    inputSchema: tool.inputJSONSchema(),
  };
}
