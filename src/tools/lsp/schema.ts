import { z } from "zod";

export const LSP_TOOL_NAME = "LSP";

const LSP_OPERATIONS = [
  "goToDefinition",
  "findReferences",
  "hover",
  "documentSymbol",
  "workspaceSymbol",
  "goToImplementation",
  "prepareCallHierarchy",
  "incomingCalls",
  "outgoingCalls",
] as const;

export type LspOperation = (typeof LSP_OPERATIONS)[number];

// Field names and 1-based positions as Claude Code's LSP tool takes them.
export const lspInputSchema = z.strictObject({
  operation: z.enum(LSP_OPERATIONS).describe("What to ask the language server"),
  filePath: z.string().min(1).describe("The file to ask about (absolute, or relative to the workspace)"),
  line: z.number().int().min(1).describe("Line number, 1-based, as editors show it"),
  character: z.number().int().min(1).describe("Column on that line, 1-based, as editors show it"),
  query: z.string().optional().describe(
    "workspaceSymbol only: the name to search for (default: the word at line:character)",
  ),
});

export type LspInput = z.infer<typeof lspInputSchema>;

export interface LspOutput {
  operation: LspOperation;
  filePath: string;
  /** How many locations, symbols or calls were found (0 for an empty answer). */
  count: number;
  text: string;
}
