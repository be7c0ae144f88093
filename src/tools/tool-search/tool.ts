/**
 * ToolSearch: the model's way to the deferred tools. It returns their full definitions (as
 * `tool_reference` blocks the Anthropic API expands, or as JSON schemas in text for providers
 * without that) and records them as discovered, which makes them callable. It runs nothing else.
 */
import type { SearchScope } from "../../policy/policy.ts";
import { cachedToolIndex } from "../../search/cache.ts";
import type { DiscoveredTools } from "../../search/discovered.ts";
import { scopeNote, searchableTools, UNRESTRICTED } from "../../search/scope.ts";
import type { ToolIndex } from "../../search/tool-index.ts";
import { buildTool } from "../../tool/build-tool.ts";
import type { ContentBlock } from "../../tool/messages.ts";
import type { AnyTool, Tool } from "../../tool/types.ts";
import prompt from "./prompt.md" with { type: "text" };
import { toolSearchRenderer } from "./render.ts";
import { TOOL_SEARCH_NAME, type ToolSearchInput, toolSearchInput, type ToolSearchOutput } from "./schema.ts";

export interface ToolSearchOptions {
  /** The deferred tools of the current pool, read on every call (the pool may have changed). */
  deferredTools(): readonly AnyTool[];
  discovered: DiscoveredTools;
  /**
   * `tool_reference`: blocks the Anthropic API expands into the definitions (first-party API);
   * `schemas`: the definitions as JSON in a text block (other providers, gateways, local models).
   */
  resultStyle: "tool_reference" | "schemas";
  /** Where the search index is cached between runs; without it the index is built in memory. */
  stateDir?: string;
  /** What the policy lets ToolSearch find (`tools.search`), read on every call; default: everything. */
  scope?(): SearchScope;
}

export function createToolSearchTool(options: ToolSearchOptions): Tool<ToolSearchInput, ToolSearchOutput> {
  const indexOf = memoizedIndex(options.stateDir);
  return buildTool<ToolSearchInput, ToolSearchOutput>({
    name: TOOL_SEARCH_NAME,
    description: "Search the deferred tools and load the definitions of the ones found.",
    prompt: () => prompt,
    inputSchema: toolSearchInput,
    category: "read",
    alwaysLoad: true,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    searchHint: "find discover load tools",
    async call(input) {
      const deferred = options.deferredTools();
      const scope = options.scope?.() ?? UNRESTRICTED;
      const tools = searchableTools(deferred, scope);
      const outcome = indexOf(tools).search(input.query, input.max_results);
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      const found = outcome.hits.map((hit) => byName.get(hit.name)!);
      options.discovered.add(found);
      const restricted = scopeNote(scope, tools.length, deferred.length);
      return {
        data: {
          query: input.query,
          matches: found.map((tool) => tool.name),
          missing: outcome.missing,
          unmatchedRequired: outcome.unmatchedRequired,
          total_deferred_tools: tools.length,
          ...(restricted ? { restricted } : {}),
        },
      };
    },
    toContent: (output) =>
      options.resultStyle === "tool_reference"
        ? referenceContent(output)
        : schemaContent(output, definitionsOf(output.matches, options.deferredTools())),
    render: toolSearchRenderer,
  });
}

/** Rebuilds the index only when the deferred tool list changed since the last call. */
function memoizedIndex(stateDir: string | undefined): (tools: readonly AnyTool[]) => ToolIndex {
  let lastTools: readonly AnyTool[] | undefined;
  let lastIndex: ToolIndex | undefined;
  return (tools) => {
    const same = lastTools !== undefined && lastTools.length === tools.length &&
      lastTools.every((tool, i) => tool === tools[i]);
    if (!same || !lastIndex) {
      lastIndex = cachedToolIndex(stateDir, tools);
      lastTools = [...tools];
    }
    return lastIndex;
  };
}

function definitionsOf(names: readonly string[], tools: readonly AnyTool[]): AnyTool[] {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return names.flatMap((name) => byName.get(name) ?? []);
}

function notes(output: ToolSearchOutput): string[] {
  const lines: string[] = [];
  if (output.restricted) lines.push(output.restricted);
  if (output.missing.length > 0) lines.push(`No deferred tool named: ${output.missing.join(", ")}`);
  if (output.unmatchedRequired.length > 0) {
    lines.push(`No deferred tool name contains: ${output.unmatchedRequired.join(", ")}`);
  }
  if (output.matches.length === 0 && !output.restricted) {
    lines.push(
      `No matching deferred tools found (${output.total_deferred_tools} deferred). Try other keywords.`,
    );
  }
  return lines;
}

function referenceContent(output: ToolSearchOutput): ContentBlock[] {
  const references: ContentBlock[] = output.matches.map((name) => ({
    type: "tool_reference",
    tool_name: name,
  }));
  const text = [...notes(output), ...(output.matches.length > 0 ? ["Tool loaded."] : [])].join("\n");
  return [...references, { type: "text", text }];
}

function schemaContent(output: ToolSearchOutput, tools: readonly AnyTool[]): ContentBlock[] {
  const definitions = tools.map((tool) =>
    `<function>${
      JSON.stringify({ name: tool.name, description: tool.prompt(), input_schema: tool.inputJSONSchema() })
    }</function>`
  );
  const text = definitions.length > 0
    ? `<functions>\n${definitions.join("\n")}\n</functions>\nThese tools are now callable.`
    : "";
  return [{ type: "text", text: [...notes(output), text].filter(Boolean).join("\n") }];
}
