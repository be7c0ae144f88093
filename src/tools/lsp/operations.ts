/**
 * Each LSP tool operation as a request to the language server and the answer as text: locations
 * as `path:line:column  <line text>`, symbols as an indented outline, calls as a list.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { LanguageServer } from "../../lsp/server.ts";
import {
  type CallHierarchyItem,
  type DocumentSymbol,
  type Hover,
  type Location,
  type LocationLink,
  type Position,
  SYMBOL_KINDS,
  type SymbolInformation,
} from "../../lsp/protocol.ts";
import { displayPath } from "../shared/paths.ts";
import type { LspOperation } from "./schema.ts";

export interface OperationRequest {
  operation: LspOperation;
  path: string;
  /** Zero-based, as the protocol counts. */
  position: Position;
  /** The file's text, for the word under the cursor. */
  text: string;
  query?: string;
  cwd: string;
}

export interface Answer {
  count: number;
  text: string;
}

/** At most this many locations or symbols are listed; the count says how many there were. */
const MAX_LISTED = 100;

export async function runOperation(server: LanguageServer, request: OperationRequest): Promise<Answer> {
  const textDocument = { uri: pathToFileURL(request.path).href };
  const at = { textDocument, position: request.position };
  const lines = new LineCache();
  const where = (location: Location) => lines.describe(location, request.cwd);
  switch (request.operation) {
    case "goToDefinition":
      return locations(await server.request("textDocument/definition", at), where, "No definition found.");
    case "goToImplementation":
      return locations(
        await server.request("textDocument/implementation", at),
        where,
        "No implementation found.",
      );
    case "findReferences":
      return locations(
        await server.request("textDocument/references", { ...at, context: { includeDeclaration: true } }),
        where,
        "No references found.",
      );
    case "hover":
      return hover(await server.request<Hover | null>("textDocument/hover", at));
    case "documentSymbol":
      return symbols(
        await server.request<(DocumentSymbol | SymbolInformation)[] | null>("textDocument/documentSymbol", {
          textDocument,
        }),
        request.cwd,
      );
    case "workspaceSymbol": {
      const query = request.query ?? wordAt(request.text, request.position);
      const found = await server.request<SymbolInformation[] | null>("workspace/symbol", { query });
      return symbols(found, request.cwd, `No symbols match ${JSON.stringify(query)}.`);
    }
    case "prepareCallHierarchy":
    case "incomingCalls":
    case "outgoingCalls":
      return callHierarchy(server, request.operation, at, request.cwd);
  }
}

type AnyLocation = Location | LocationLink;

function locations(
  answer: AnyLocation | AnyLocation[] | null | undefined,
  describe: (location: Location) => string,
  none: string,
): Answer {
  const list = (answer == null ? [] : Array.isArray(answer) ? answer : [answer]).map(asLocation);
  if (list.length === 0) return { count: 0, text: none };
  const shown = list.slice(0, MAX_LISTED).map(describe);
  if (list.length > shown.length) shown.push(`... and ${list.length - shown.length} more`);
  const heading = `${list.length} location${list.length === 1 ? "" : "s"}:`;
  return { count: list.length, text: [heading, ...shown].join("\n") };
}

function asLocation(item: AnyLocation): Location {
  return "targetUri" in item ? { uri: item.targetUri, range: item.targetSelectionRange } : item;
}

function hover(answer: Hover | null): Answer {
  if (!answer) return { count: 0, text: "No hover information at this position." };
  const parts = Array.isArray(answer.contents) ? answer.contents : [answer.contents];
  const text = parts.map((part) => (typeof part === "string" ? part : part.value)).join("\n\n").trim();
  return text ? { count: 1, text } : { count: 0, text: "No hover information at this position." };
}

function symbols(
  answer: (DocumentSymbol | SymbolInformation)[] | null,
  cwd: string,
  none = "No symbols found.",
): Answer {
  const list = answer ?? [];
  if (list.length === 0) return { count: 0, text: none };
  const lines: string[] = [];
  const outline = (symbol: DocumentSymbol | SymbolInformation, depth: number) => {
    if (lines.length >= MAX_LISTED) return;
    const kind = SYMBOL_KINDS[symbol.kind] ?? `kind ${symbol.kind}`;
    const place = "selectionRange" in symbol
      ? `${symbol.selectionRange.start.line + 1}:${symbol.selectionRange.start.character + 1}`
      : symbolPlace(symbol, cwd);
    const container = "containerName" in symbol && symbol.containerName ? ` in ${symbol.containerName}` : "";
    lines.push(`${"  ".repeat(depth)}${symbol.name} (${kind}${container}) ${place}`);
    if ("children" in symbol) { for (const child of symbol.children ?? []) outline(child, depth + 1); }
  };
  for (const symbol of list) outline(symbol, 0);
  return { count: list.length, text: lines.join("\n") };
}

function symbolPlace(symbol: SymbolInformation, cwd: string): string {
  const path = displayPath(fileURLToPath(symbol.location.uri), cwd);
  if (!("range" in symbol.location)) return path;
  const start = symbol.location.range.start;
  return `${path}:${start.line + 1}:${start.character + 1}`;
}

async function callHierarchy(
  server: LanguageServer,
  operation: "prepareCallHierarchy" | "incomingCalls" | "outgoingCalls",
  at: object,
  cwd: string,
): Promise<Answer> {
  const items = await server.request<CallHierarchyItem[] | null>("textDocument/prepareCallHierarchy", at) ??
    [];
  const item = items[0];
  if (!item) return { count: 0, text: "No function or method at this position." };
  if (operation === "prepareCallHierarchy") {
    return { count: items.length, text: items.map((i) => describeItem(i, cwd)).join("\n") };
  }
  const incoming = operation === "incomingCalls";
  const calls = await server.request<{ from?: CallHierarchyItem; to?: CallHierarchyItem }[] | null>(
    incoming ? "callHierarchy/incomingCalls" : "callHierarchy/outgoingCalls",
    { item },
  ) ?? [];
  const others = calls.map((call) => (incoming ? call.from : call.to)).filter((i) => i !== undefined);
  if (others.length === 0) {
    return { count: 0, text: `${incoming ? "Nothing calls" : "Nothing is called by"} ${item.name}.` };
  }
  const heading = incoming ? `Called by (${others.length}):` : `${item.name} calls (${others.length}):`;
  return {
    count: others.length,
    text: [heading, ...others.map((i) => `  ${describeItem(i, cwd)}`)].join("\n"),
  };
}

function describeItem(item: CallHierarchyItem, cwd: string): string {
  const path = displayPath(fileURLToPath(item.uri), cwd);
  const start = item.selectionRange.start;
  const kind = SYMBOL_KINDS[item.kind] ?? `kind ${item.kind}`;
  return `${item.name} (${kind}) ${path}:${start.line + 1}:${start.character + 1}`;
}

/** The identifier around a position, for a workspace symbol search without a query. */
function wordAt(text: string, position: Position): string {
  const line = text.split("\n")[position.line] ?? "";
  const isWord = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_$]/u.test(c);
  let start = position.character;
  let end = position.character;
  while (start > 0 && isWord(line[start - 1])) start--;
  while (isWord(line[end])) end++;
  return line.slice(start, end);
}

/** Reads each file once to show the text of the lines locations point at. */
class LineCache {
  readonly #files = new Map<string, string[] | undefined>();

  describe(location: Location, cwd: string): string {
    const path = fileURLToPath(location.uri);
    const { line, character } = location.range.start;
    const text = this.#lines(path)?.[line]?.trim();
    const place = `${displayPath(path, cwd)}:${line + 1}:${character + 1}`;
    return text ? `${place}  ${text.length > 160 ? `${text.slice(0, 157)}...` : text}` : place;
  }

  #lines(path: string): string[] | undefined {
    if (!this.#files.has(path)) {
      let lines: string[] | undefined;
      try {
        lines = readFileSync(path, "utf8").split("\n");
      } catch {
        lines = undefined;
      }
      this.#files.set(path, lines);
    }
    return this.#files.get(path);
  }
}
