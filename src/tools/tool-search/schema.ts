/** ToolSearch's model-facing input: `{query, max_results}`, as Claude Code's ToolSearch takes it. */
import { z } from "zod";

export const TOOL_SEARCH_NAME = "ToolSearch";

export const DEFAULT_MAX_RESULTS = 5;

export const toolSearchInput = z.strictObject({
  query: z.string().describe(
    'What to find: "select:Name1,Name2" to load tools by name, keywords, or "+word keywords" to require word in the name',
  ),
  max_results: z.number().int().min(1).max(50).default(DEFAULT_MAX_RESULTS).describe(
    "How many tools to return at most (default 5)",
  ),
});

export type ToolSearchInput = z.infer<typeof toolSearchInput>;

export interface ToolSearchOutput {
  query: string;
  /** Found tools, best first. */
  matches: string[];
  /** `select:` names no deferred tool has. */
  missing: string[];
  /** `+word`s that no deferred tool's name contains. */
  unmatchedRequired: string[];
  /** Deferred tools ToolSearch may find (after the policy's `tools.search`). */
  total_deferred_tools: number;
  /** Why nothing can be found, when the policy's search scope leaves no deferred tool. */
  restricted?: string;
}
