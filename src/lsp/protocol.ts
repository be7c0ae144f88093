/** The small part of the Language Server Protocol's types that toolrt reads and sends. */

/** Zero-based; `character` counts UTF-16 code units, as JavaScript strings do. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface Location {
  uri: string;
  range: Range;
}

export interface LocationLink {
  targetUri: string;
  targetRange: Range;
  targetSelectionRange: Range;
}

export interface Diagnostic {
  range: Range;
  /** 1 error, 2 warning, 3 information, 4 hint; absent means error. */
  severity?: 1 | 2 | 3 | 4;
  code?: string | number;
  source?: string;
  message: string;
}

export interface DocumentSymbol {
  name: string;
  kind: number;
  detail?: string;
  range: Range;
  selectionRange: Range;
  children?: DocumentSymbol[];
}

export interface SymbolInformation {
  name: string;
  kind: number;
  containerName?: string;
  location: Location | { uri: string };
}

export interface CallHierarchyItem {
  name: string;
  kind: number;
  detail?: string;
  uri: string;
  range: Range;
  selectionRange: Range;
}

export interface Hover {
  contents: string | { kind?: string; language?: string; value: string } | (string | { value: string })[];
  range?: Range;
}

export interface ServerCapabilities {
  diagnosticProvider?: unknown;
  [capability: string]: unknown;
}

export const CLIENT_CAPABILITIES = {
  general: { positionEncodings: ["utf-16"] },
  textDocument: {
    synchronization: { didSave: true, dynamicRegistration: false },
    publishDiagnostics: { versionSupport: true, relatedInformation: false },
    diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
    definition: { linkSupport: true },
    references: {},
    implementation: { linkSupport: true },
    hover: { contentFormat: ["markdown", "plaintext"] },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    callHierarchy: {},
  },
  workspace: { symbol: {}, configuration: true, workspaceFolders: true },
  window: { workDoneProgress: false },
};

/** Symbol kinds by number, for printing. */
export const SYMBOL_KINDS = [
  "",
  "file",
  "module",
  "namespace",
  "package",
  "class",
  "method",
  "property",
  "field",
  "constructor",
  "enum",
  "interface",
  "function",
  "variable",
  "constant",
  "string",
  "number",
  "boolean",
  "array",
  "object",
  "key",
  "null",
  "enum member",
  "struct",
  "event",
  "operator",
  "type parameter",
];
