/**
 * After a successful Edit, Write or MultiEdit on a file a language server handles, the server hears
 * the new text and its diagnostics ride along with the tool result: the model sees "this broke the
 * type check" without another call.
 */
import type { ResultEnricher } from "../../exec/pipeline.ts";
import { formatDiagnostics } from "./diagnostics.ts";
import type { LspManager } from "../../lsp/manager.ts";
import type { ContentBlock } from "../../tool/messages.ts";
import { displayPath } from "../shared/paths.ts";

const EDITING_TOOLS = new Set(["Edit", "Write", "MultiEdit"]);

export function createDiagnosticsEnricher(manager: LspManager): ResultEnricher {
  return async ({ tool, input, ctx }) => {
    if (!EDITING_TOOLS.has(tool.name) || tool.origin.kind !== "builtin") return [];
    const path = tool.getPath?.(input, ctx);
    if (!path || !manager.serverFor(path)) return [];
    try {
      const diagnostics = await manager.diagnose(path);
      return diagnostics ? [reminder(formatDiagnostics(path, ctx.cwd, diagnostics))] : [];
    } catch (error) {
      return [reminder(`No diagnostics for ${displayPath(path, ctx.cwd)}: ${(error as Error).message}`)];
    }
  };
}

function reminder(text: string): ContentBlock {
  return { type: "text", text: `<system-reminder>\n${text}\n</system-reminder>` };
}
