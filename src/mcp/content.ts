/**
 * MCP results in the message model: text, images (size-capped), resource links, embedded
 * resources and structured content, truncated in place once they exceed the token budget.
 */
import type { CallToolResult, ContentBlock as McpContent } from "@modelcontextprotocol/sdk/types.js";
import { type ContentBlock, textBlock } from "../tool/messages.ts";

const DEFAULT_MAX_MCP_OUTPUT_TOKENS = 25_000;
/** The provider's per-image limit: a larger image is replaced by a notice, never sent. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** What an image costs against the token budget (a full-size image is about this many tokens). */
const IMAGE_TOKENS = 1_600;
const CHARS_PER_TOKEN = 4;

/** `MAX_MCP_OUTPUT_TOKENS` from the environment, else the default. */
export function maxMcpOutputTokens(env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number(env.MAX_MCP_OUTPUT_TOKENS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_MAX_MCP_OUTPUT_TOKENS;
}

/** The content blocks the model receives for one MCP tool result. */
export function mcpResultToContent(result: CallToolResult, maxTokens: number): ContentBlock[] {
  const blocks = (result.content ?? []).map(mcpBlockToContent);
  const hasText = blocks.some((b) => b.type === "text");
  // Servers should mirror structured content as text; when one does not, the model still sees it.
  if (result.structuredContent !== undefined && !hasText) {
    blocks.push(textBlock(JSON.stringify(result.structuredContent, null, 2)));
  }
  return truncateToTokens(blocks, maxTokens);
}

export function mcpBlockToContent(block: McpContent): ContentBlock {
  switch (block.type) {
    case "text":
      return textBlock(block.text);
    case "image":
      return imageBlock(block.data, block.mimeType);
    case "audio":
      return textBlock(`[audio ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}: not shown]`);
    case "resource_link": {
      const about = [block.mimeType, block.description].filter(Boolean).join(", ");
      return textBlock(`[resource link: ${block.name} <${block.uri}>${about ? ` (${about})` : ""}]`);
    }
    case "resource": {
      const resource = block.resource;
      if ("text" in resource) return textBlock(resource.text);
      if (resource.mimeType?.startsWith("image/")) return imageBlock(resource.blob, resource.mimeType);
      return textBlock(
        `[binary resource <${resource.uri}>${resource.mimeType ? ` ${resource.mimeType}` : ""}, ` +
          `${formatBytes(base64Bytes(resource.blob))}: not shown]`,
      );
    }
  }
}

function imageBlock(data: string, mediaType: string): ContentBlock {
  const bytes = base64Bytes(data);
  if (bytes > MAX_IMAGE_BYTES) {
    return textBlock(
      `[image ${mediaType} of ${formatBytes(bytes)} omitted: over the ${formatBytes(MAX_IMAGE_BYTES)} cap]`,
    );
  }
  return { type: "image", source: { type: "base64", media_type: mediaType, data } };
}

/** Estimated tokens of a block list: characters / 4 for text, a flat cost per image. */
function estimateTokens(blocks: readonly ContentBlock[]): number {
  let tokens = 0;
  for (const block of blocks) {
    if (block.type === "text") tokens += Math.ceil(block.text.length / CHARS_PER_TOKEN);
    else if (block.type === "image") tokens += IMAGE_TOKENS;
  }
  return tokens;
}

/**
 * Keeps blocks in order until the budget is spent, cuts the text block that crosses it, drops
 * the rest and appends a notice saying so.
 */
function truncateToTokens(blocks: ContentBlock[], maxTokens: number): ContentBlock[] {
  if (estimateTokens(blocks) <= maxTokens) return blocks;
  const kept: ContentBlock[] = [];
  let left = maxTokens;
  for (const block of blocks) {
    const cost = estimateTokens([block]);
    if (cost <= left) {
      kept.push(block);
      left -= cost;
      continue;
    }
    if (block.type === "text" && left > 0) kept.push(textBlock(block.text.slice(0, left * CHARS_PER_TOKEN)));
    break;
  }
  kept.push(textBlock(`\n\n[OUTPUT TRUNCATED - exceeded ${maxTokens} token limit]`));
  return kept;
}

function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
