/**
 * HTML to readable, Markdown-flavoured text with Bun's built-in streaming HTML parser
 * (HTMLRewriter): headings as `#`, list items as `-`, links as `[text](url)`, `pre` kept verbatim,
 * scripts, styles and other non-content dropped. No dependency, nothing added to the binary.
 */
import { decodeEntities } from "./entities.ts";

const DROPPED = new Set(["script", "style", "noscript", "template", "svg", "canvas", "iframe", "object"]);
const BLOCKS = new Set(
  ("address article aside blockquote body dd details div dl dt fieldset figcaption figure footer form " +
    "h1 h2 h3 h4 h5 h6 header hr html li main nav ol p pre section summary table tbody thead tfoot tr ul")
    .split(" "),
);

export interface PageText {
  title?: string;
  text: string;
}

export async function htmlToText(html: string, baseUrl: string): Promise<PageText> {
  const out: string[] = [];
  let pendingText = "";
  let dropDepth = 0;
  let preDepth = 0;
  let title: string | undefined;
  let inTitle = false;
  const links: string[] = [];

  const flushText = () => {
    if (!pendingText) return;
    const text = decodeEntities(pendingText);
    pendingText = "";
    if (inTitle) title = (title ?? "") + text;
    else if (dropDepth === 0) out.push(preDepth > 0 ? text : text.replace(/\s+/g, " "));
  };
  const breakLine = () => out.push("\n\n");

  const rewriter = new HTMLRewriter()
    .on("*", {
      element(el) {
        flushText();
        const tag = el.tagName;
        const closes = (fn: () => void) => {
          if (!el.selfClosing && el.canHaveContent) el.onEndTag(() => (flushText(), fn()));
        };
        if (tag === "title") {
          inTitle = true;
          closes(() => (inTitle = false));
          return;
        }
        if (DROPPED.has(tag)) {
          dropDepth++;
          closes(() => dropDepth--);
          return;
        }
        if (dropDepth > 0) return;
        if (tag === "br") out.push("\n");
        else if (tag === "hr") out.push("\n\n---\n\n");
        else if (tag === "img") {
          const alt = el.getAttribute("alt")?.trim();
          if (alt) out.push(`[image: ${alt}]`);
        } else if (/^h[1-6]$/.test(tag)) {
          out.push(`\n\n${"#".repeat(Number(tag[1]))} `);
          closes(breakLine);
        } else if (tag === "li") {
          out.push("\n- "); // the next item or the list's end breaks the line
        } else if (tag === "pre") {
          out.push("\n\n```\n");
          preDepth++;
          closes(() => (preDepth--, out.push("\n```\n\n")));
        } else if (tag === "td" || tag === "th") {
          out.push(" | ");
        } else if (tag === "a") {
          const href = absoluteHref(el.getAttribute("href"), baseUrl);
          if (href) {
            out.push("[");
            links.push(href);
            closes(() => out.push(`](${links.pop()})`));
          }
        } else if (BLOCKS.has(tag)) {
          breakLine();
          closes(breakLine);
        }
      },
    })
    .onDocument({
      text(chunk) {
        pendingText += chunk.text;
      },
    });
  await rewriter.transform(new Response(html)).text();
  flushText();
  return { title: title?.replace(/\s+/g, " ").trim() || undefined, text: tidy(out.join("")) };
}

/** Links the reader can follow: http(s) URLs resolved against the page; fragments and scripts dropped. */
function absoluteHref(href: string | null, baseUrl: string): string | undefined {
  if (!href || href.startsWith("#")) return undefined;
  try {
    const url = new URL(href, baseUrl);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Trailing spaces off, spaces after line starts off (outside code), at most one blank line in a row. */
function tidy(text: string): string {
  const lines = text.split("\n");
  let inCode = false;
  const kept = lines.map((line) => {
    if (line.startsWith("```")) inCode = !inCode;
    return inCode ? line.trimEnd() : line.trim();
  });
  return kept.join("\n").replace(/\n{3,}/g, "\n\n").trim();
}
