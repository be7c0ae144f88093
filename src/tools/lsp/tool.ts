/**
 * The LSP tool: code intelligence from the language servers that enabled plugins (or settings)
 * declare. It exists in the pool only while some server is declared, and is always loaded then.
 */
import type { LspManager } from "../../lsp/manager.ts";
import { buildTool } from "../../tool/build-tool.ts";
import type { Tool, ToolOrigin } from "../../tool/types.ts";
import { ToolError } from "../shared/errors.ts";
import { requireFile } from "../shared/files.ts";
import { displayPath, resolveToolPath } from "../shared/paths.ts";
import { checkWorkspaceAccess } from "../shared/permissions.ts";
import { runOperation } from "./operations.ts";
import prompt from "./prompt.md" with { type: "text" };
import { LSP_TOOL_NAME, type LspInput, lspInputSchema, type LspOutput } from "./schema.ts";

export function createLspTool(manager: LspManager, origin: ToolOrigin): Tool<LspInput, LspOutput> {
  return buildTool<LspInput, LspOutput>({
    name: LSP_TOOL_NAME,
    origin,
    category: "read",
    alwaysLoad: true,
    searchHint: "definition references hover symbols implementation call hierarchy language server",
    description:
      "Asks a language server about code: definitions, references, hover, symbols, implementations, calls.",
    prompt: () => prompt,
    inputSchema: lspInputSchema,
    isEnabled: () => manager.active,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    interruptBehavior: () => "cancel",
    // The path, so `LSP(path:…)` rules match the way Read's path rules do.
    getPath: (input, ctx) => resolveToolPath(input.filePath, ctx.cwd),
    checkPermissions: async (input, ctx) =>
      checkWorkspaceAccess(resolveToolPath(input.filePath, ctx.cwd), ctx, "read"),
    async validateInput(input, ctx) {
      const path = resolveToolPath(input.filePath, ctx.cwd);
      if (manager.serverFor(path)) return { ok: true };
      const handled = manager.specs.flatMap((spec) => Object.keys(spec.config.extensionToLanguage));
      return {
        ok: false,
        message: `No language server handles ${displayPath(path, ctx.cwd)}; ` +
          `the declared servers handle ${[...new Set(handled)].sort().join(", ") || "nothing"}.`,
      };
    },
    async call(input, ctx) {
      const path = resolveToolPath(input.filePath, ctx.cwd);
      await requireFile(path);
      const target = manager.serverFor(path);
      if (!target) throw new ToolError(`No language server handles ${path}.`);
      const text = await Bun.file(path).text();
      await target.server.ensureOpen(path, target.languageId, text);
      const answer = await runOperation(target.server, {
        operation: input.operation,
        path,
        position: { line: input.line - 1, character: input.character - 1 },
        text,
        query: input.query,
        cwd: ctx.cwd,
      });
      return { data: { operation: input.operation, filePath: path, ...answer } };
    },
    toContent: (output) => [{ type: "text", text: output.text }],
    render: {
      toolUse: (input) => `LSP(${input.operation ?? "?"} ${input.filePath ?? ""}:${input.line ?? "?"})`,
      result: (output) => `${output.operation}: ${output.count} found`,
    },
  });
}
