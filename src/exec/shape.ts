/**
 * Stage 6: result budgets. A result over its tool's `maxResultSizeChars` (never more than the global
 * ceiling) is persisted whole; the model gets the head and tail, the original size and the path.
 * Parallel results of one message share a total budget too.
 */
import type { ContentBlock } from "../tool/messages.ts";
import { persistResult } from "./persist.ts";

export const GLOBAL_RESULT_CEILING_CHARS = 50_000;
const MESSAGE_BUDGET_CHARS = 200_000;
const PREVIEW_HEAD_CHARS = 3_000;
const PREVIEW_TAIL_CHARS = 1_000;

export interface ShapedContent {
  content: ContentBlock[];
  persistedPath?: string;
}

export function textLength(content: ContentBlock[]): number {
  return content.reduce((sum, block) => sum + (block.type === "text" ? block.text.length : 0), 0);
}

export function shapeResult(
  content: ContentBlock[],
  limitChars: number,
  persist: { stateDir: string; toolUseId: string },
): ShapedContent {
  const limit = Math.min(limitChars, GLOBAL_RESULT_CEILING_CHARS);
  if (textLength(content) <= limit) return { content };
  const text = content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
  const path = persistResult(persist.stateDir, persist.toolUseId, text);
  const others = content.filter((b) => b.type !== "text");
  return { content: [{ type: "text", text: previewText(text, path) }, ...others], persistedPath: path };
}

/** Head and tail of a large result, with its size and where the whole of it is. */
function previewText(text: string, path: string): string {
  const chars = text.length;
  const tokens = Math.ceil(chars / 4);
  const head = text.slice(0, PREVIEW_HEAD_CHARS);
  const tail = text.slice(-PREVIEW_TAIL_CHARS);
  return [
    `<persisted-output>`,
    `Output too large (${chars.toLocaleString("en-US")} characters, about ${
      tokens.toLocaleString("en-US")
    } tokens).`,
    `The full output is saved at ${path}; read parts of it with the Read tool (offset and limit).`,
    ``,
    `First ${head.length} characters:`,
    head,
    `...`,
    `Last ${tail.length} characters:`,
    tail,
    `</persisted-output>`,
  ].join("\n");
}

export interface BudgetedResult {
  toolUseId: string;
  content: ContentBlock[];
  persistedPath?: string;
}

/**
 * Keeps the results of one message under the total budget by persisting the largest ones first.
 * Results are changed in place and returned for convenience.
 */
export function enforceMessageBudget<T extends BudgetedResult>(
  results: T[],
  stateDir: string,
  budget = MESSAGE_BUDGET_CHARS,
): T[] {
  let total = results.reduce((sum, r) => sum + textLength(r.content), 0);
  const bySize = [...results].filter((r) => !r.persistedPath).sort((a, b) =>
    textLength(b.content) - textLength(a.content)
  );
  for (const result of bySize) {
    if (total <= budget) break;
    const before = textLength(result.content);
    const shaped = shapeResult(result.content, 0, { stateDir, toolUseId: result.toolUseId });
    result.content = shaped.content;
    result.persistedPath = shaped.persistedPath;
    total += textLength(result.content) - before;
  }
  return results;
}
