import { buildTool } from "../../tool/build-tool.ts";
import { formatBytes } from "../../render/units.ts";
import { ToolError } from "../shared/errors.ts";
import { type FetchLimits, fetchPage } from "./fetch-page.ts";
import { htmlToText } from "./html-to-text.ts";
import prompt from "./prompt.md" with { type: "text" };
import { webFetchContent, webFetchRenderer } from "./render.ts";
import { type WebFetchInput, webFetchInputSchema, type WebFetchOutput } from "./schema.ts";

export interface WebFetchLimits extends FetchLimits {
  /** The page text is cut to this many characters. */
  maxTextChars: number;
}

const WEB_FETCH_DEFAULT_LIMITS: WebFetchLimits = {
  timeoutMs: 30_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
  maxTextChars: 100_000,
};

export function createWebFetchTool(limits: WebFetchLimits = WEB_FETCH_DEFAULT_LIMITS) {
  return buildTool<WebFetchInput, WebFetchOutput>({
    name: "WebFetch",
    category: "network",
    searchHint: "fetch url web page http download read website",
    description: "Fetches an http(s) URL and returns its content as readable text.",
    prompt: () => prompt,
    inputSchema: webFetchInputSchema,
    // Nothing local changes, but a request can carry data out: it needs permission like a write.
    isReadOnly: () => false,
    isConcurrencySafe: () => true,
    interruptBehavior: () => "cancel",
    shouldDefer: true,
    maxResultSizeChars: limits.maxTextChars,
    async validateInput(input) {
      let url: URL;
      try {
        url = new URL(input.url);
      } catch {
        return {
          ok: false,
          message: `${JSON.stringify(input.url)} is not a valid URL; give a complete http(s) URL.`,
        };
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        return {
          ok: false,
          message: `Only http and https URLs can be fetched, not ${url.protocol.slice(0, -1)}.`,
        };
      }
      if (url.username || url.password) {
        return {
          ok: false,
          message: "URLs with a user name or password are refused; remove the credentials.",
        };
      }
      return { ok: true };
    },
    async call(input, ctx) {
      const outcome = await fetchPage(input.url, limits, ctx.abortSignal);
      if (outcome.kind === "redirect") return { data: { ...outcome, url: input.url, prompt: input.prompt } };
      const readable = await readableText(outcome.body, outcome.contentType, outcome.finalUrl);
      if (outcome.status >= 400) {
        throw new ToolError(`${outcome.finalUrl} answered ${outcome.status}: ${readable.text.slice(0, 300)}`);
      }
      const cutText = readable.text.length > limits.maxTextChars;
      return {
        data: {
          kind: "page",
          url: input.url,
          finalUrl: outcome.finalUrl,
          status: outcome.status,
          contentType: outcome.contentType,
          bytes: outcome.body.length,
          title: readable.title,
          text: cutText ? `${readable.text.slice(0, limits.maxTextChars)}\n… (text cut)` : readable.text,
          cut: outcome.cut || cutText,
          prompt: input.prompt,
        },
      };
    },
    toContent: (output) => [{ type: "text", text: webFetchContent(output) }],
    render: webFetchRenderer,
  });
}

export const webFetchTool = createWebFetchTool();

const TEXTUAL = /^(text\/|application\/(json|xml|javascript|ld\+json|[\w.+-]+\+(json|xml))|image\/svg\+xml)/;

async function readableText(
  body: Uint8Array,
  contentType: string,
  url: string,
): Promise<{ title?: string; text: string }> {
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  if (mediaType && !TEXTUAL.test(mediaType)) {
    return { text: `(${mediaType} content, ${formatBytes(body.length)}, is not text and is not shown.)` };
  }
  const text = decode(body, /charset=["']?([\w-]+)/i.exec(contentType)?.[1]);
  const looksHtml = mediaType === "text/html" || mediaType === "application/xhtml+xml" ||
    (!mediaType && /^\s*<(!doctype html|html)/i.test(text));
  return looksHtml ? htmlToText(text, url) : { text };
}

function decode(body: Uint8Array, charset: string | undefined): string {
  try {
    return new TextDecoder((charset ?? "utf-8") as ConstructorParameters<typeof TextDecoder>[0]).decode(body);
  } catch {
    return new TextDecoder().decode(body); // an unknown charset label
  }
}
