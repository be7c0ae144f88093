/**
 * Renders a normalized transcript for people. Every call is shown by its tool's own renderers
 * (from the local pool); a tool this runtime lacks gets the Bash fallback or a generic stub with
 * its name and input. Remote and local calls group and collapse the same way.
 */
import type { Transcript } from "../remote/transcript.ts";
import type { ContentBlock } from "../tool/messages.ts";
import type { AnyTool, RenderOptions, ToolRenderer } from "../tool/types.ts";
import { agentRenderer } from "../tools/agent/render.ts";
import { bashRenderer, classifyCommand, collapsedSummary } from "./bash.ts";
import { type CallItem, groupItems, type RenderBlock, transcriptItems } from "./group.ts";
import { clip, paint } from "./colour.ts";
import { stubRenderer } from "./stub.ts";

export interface TranscriptRenderOptions extends RenderOptions {
  /** The local tools whose renderers apply. */
  tools: readonly AnyTool[];
}

/** Lines of a result shown before `… +N lines` when not verbose. */
const PREVIEW_LINES = 4;
const DENIAL = /permission|denied|requires approval|not allowed/i;

/** Renderers for well-known tools when the local pool lacks them (their results show as text). */
const FALLBACK_RENDERERS: Record<string, ToolRenderer<any, any>> = {
  Agent: agentRenderer,
  Task: agentRenderer,
};

interface Entry {
  renderer: ToolRenderer<any, any>;
  /** Whether `renderer.result` understands this structured output. */
  readsOutput(output: unknown): boolean;
}

export function renderTranscript(transcript: Transcript, opts: TranscriptRenderOptions): string {
  const entryFor = entries(transcript, opts.tools);
  const blocks = groupItems(transcriptItems(transcript), {
    canGroup: (name) => entryFor(name).renderer.grouped !== undefined,
    commandKind: (call) =>
      isShell(call.use.name)
        ? classifyCommand(String((call.use.input as { command?: unknown }).command ?? ""))
        : undefined,
  });
  return blocks.map((block) => renderBlock(block, entryFor, opts)).join("\n");
}

function entries(transcript: Transcript, tools: readonly AnyTool[]): (name: string) => Entry {
  const cache = new Map<string, Entry>();
  return (name) => {
    let entry = cache.get(name);
    if (!entry) {
      entry = entryOf(name, tools, transcript.source);
      cache.set(name, entry);
    }
    return entry;
  };
}

function entryOf(name: string, tools: readonly AnyTool[], source: Transcript["source"]): Entry {
  // Remote shells report in their own shapes (exit codes in text): the shell renderer reads those.
  if (isShell(name) && source !== "toolrt") {
    return { renderer: bashRenderer, readsOutput: (output) => typeof output === "object" };
  }
  const tool = tools.find((t) => t.name === name || t.aliases.includes(name));
  if (tool) {
    return {
      renderer: tool.render,
      // A remote tool's output shape may differ from the local one: only a validated (or our own) output.
      readsOutput: (
        output,
      ) => (tool.outputSchema ? tool.outputSchema.safeParse(output).success : source === "toolrt"),
    };
  }
  const known = FALLBACK_RENDERERS[name];
  return { renderer: known ?? stubRenderer(name), readsOutput: () => false };
}

function isShell(name: string): boolean {
  return name === "Bash";
}

function renderBlock(block: RenderBlock, entryFor: (name: string) => Entry, opts: RenderOptions): string {
  switch (block.kind) {
    case "note":
      return paint(`· ${block.text}`, "dim", opts);
    case "text":
      return indent(
        block.role === "user" ? `> ${block.text}` : bullet(block.text, opts),
        block.nested,
      );
    case "group": {
      const renderer = entryFor(block.name).renderer;
      const line = safely(
        () => renderer.grouped!(block.calls.map((c) => c.use.input ?? {}), opts),
        block.name,
      );
      return indent(bullet(line, opts), block.calls[0]!.nested);
    }
    case "collapsed": {
      const commands = block.calls.map((c) => String((c.use.input as { command?: unknown }).command ?? ""));
      const line = `${collapsedSummary(block.kinds)} ${paint(`(${commands.join(" · ")})`, "dim", opts)}`;
      return indent(bullet(clip(line, opts.columns), opts), block.calls[0]!.nested);
    }
    case "call":
      return indent(renderCall(block, entryFor(block.use.name), opts), block.nested);
  }
}

function renderCall(call: CallItem, entry: Entry, opts: RenderOptions): string {
  const { renderer } = entry;
  const input = call.use.input ?? {};
  const fallbackHead = `${call.use.name}(…)`;
  if (!call.result) {
    return `${bullet(safely(() => renderer.toolUse(input, opts), fallbackHead), opts)}\n${
      result(paint("(no result recorded)", "dim", opts))
    }`;
  }
  const text = textOf(call.result.content);
  const readable = call.output !== undefined && entry.readsOutput(call.output);
  if (call.result.is_error && !readable) {
    const shown = DENIAL.test(text)
      ? safely(() => renderer.rejected(input, text, opts), fallbackHead)
      : safely(() => renderer.error(text, input, opts), fallbackHead);
    // An error renderer may add detail below its first line: it goes where a result would.
    const [head = "", ...detail] = shown.split("\n");
    return detail.length
      ? `${bullet(head, opts)}\n${result(preview(detail.join("\n"), opts))}`
      : bullet(head, opts);
  }
  const head = safely(() => renderer.toolUse(input, opts), fallbackHead);
  const body = readable ? safely(() => renderer.result(call.output, input, opts), text) : text;
  return `${bullet(head, opts)}\n${result(preview(body || "(empty)", opts))}`;
}

/** A renderer that throws must not take the transcript down: show the fallback instead. */
function safely(render: () => string, fallback: string): string {
  try {
    const out = render();
    return typeof out === "string" ? out : fallback;
  } catch {
    return fallback;
  }
}

function textOf(content: readonly ContentBlock[]): string {
  return content.map((b) =>
    b.type === "text" ? b.text : b.type === "tool_reference" ? `→ ${b.tool_name}` : `[${b.type}]`
  ).join("\n").replace(/^\n+|\s+$/g, "");
}

function preview(text: string, opts: RenderOptions): string {
  const lines = text.split("\n");
  if (opts.verbose || lines.length <= PREVIEW_LINES) return text;
  return [...lines.slice(0, PREVIEW_LINES), paint(`… +${lines.length - PREVIEW_LINES} lines`, "dim", opts)]
    .join("\n");
}

function bullet(text: string, opts: RenderOptions): string {
  const [first, ...rest] = text.split("\n");
  return [`${paint("●", "bold", opts)} ${first}`, ...rest.map((l) => `  ${l}`)].join("\n");
}

function result(text: string): string {
  const [first, ...rest] = text.split("\n");
  return [`  ⎿  ${first}`, ...rest.map((l) => `     ${l}`)].join("\n");
}

function indent(text: string, nested: boolean): string {
  return nested ? text.split("\n").map((l) => `    ${l}`).join("\n") : text;
}
