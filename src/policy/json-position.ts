/**
 * Strict JSON with positions: parses a file and maps JSON paths (`["rules", 2, "match"]`) back to
 * line:column, so every complaint about a policy file points at the spot to fix.
 */
import { findNodeAtLocation, type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";

/** A problem in a file, at a 1-based line and column. */
export class FileProblem extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super(`${file}:${line}:${column}: ${detail}`);
    this.name = "FileProblem";
  }
}

export type JsonPath = (string | number)[];

export class JsonDocument {
  private readonly lineStarts: number[];

  constructor(readonly file: string, readonly text: string, readonly root: Node, readonly value: unknown) {
    this.lineStarts = [0];
    for (let i = 0; i < text.length; i++) if (text[i] === "\n") this.lineStarts.push(i + 1);
  }

  /** A problem at the value under `path`; with `atKey`, at its property name instead. */
  problemAt(
    path: JsonPath,
    detail: string,
    options: { atKey?: boolean; extraColumns?: number } = {},
  ): FileProblem {
    const { line, column } = this.positionOf(this.offsetOf(path, options.atKey === true));
    return new FileProblem(this.file, line, column + (options.extraColumns ?? 0), detail);
  }

  private offsetOf(path: JsonPath, atKey: boolean): number {
    // The deepest existing node on the path: a missing field is reported at its parent object.
    for (let depth = path.length; depth >= 0; depth--) {
      const node = findNodeAtLocation(this.root, path.slice(0, depth));
      if (!node) continue;
      const key = node.parent?.type === "property" ? node.parent.children?.[0] : undefined;
      return atKey && depth === path.length && key ? key.offset : node.offset;
    }
    return 0;
  }

  positionOf(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - this.lineStarts[low]! + 1 };
  }
}

const SYNTAX_HINTS: Record<string, string> = {
  InvalidSymbol: "unexpected character; expected a JSON value",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "expected a property name in double quotes (trailing commas are not allowed)",
  ValueExpected: "expected a JSON value (trailing commas are not allowed)",
  ColonExpected: "expected ':' after the property name",
  CommaExpected: "expected ',' between items",
  CloseBraceExpected: "expected '}' to close the object",
  CloseBracketExpected: "expected ']' to close the array",
  EndOfFileExpected: "expected the end of the file after the top-level value",
  InvalidCommentToken: 'comments are not allowed in JSON; put notes in a "description" field',
  UnexpectedEndOfComment: 'comments are not allowed in JSON; put notes in a "description" field',
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "incomplete number",
  InvalidUnicode: "invalid \\u escape",
  InvalidEscapeCharacter: "invalid escape character in string",
  InvalidCharacter: "control character in string; escape it",
};

/** Parses strict JSON (no comments, no trailing commas, no duplicate keys); throws FileProblem. */
export function parseJsonDocument(file: string, text: string): JsonDocument {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const blank = { offset: 0, length: 0, type: "null" } as Node;
  const locate = new JsonDocument(file, text, root ?? blank, undefined);
  if (text.trim() === "") throw locate.problemAt([], "the file is empty; expected a JSON object");
  const first = errors[0];
  if (first || !root) {
    const { line, column } = locate.positionOf(first?.offset ?? 0);
    const code = first ? printParseErrorCode(first.error) : "";
    throw new FileProblem(file, line, column, `not valid JSON: ${SYNTAX_HINTS[code] ?? code}`);
  }
  const duplicate = findDuplicateKey(root);
  if (duplicate) {
    const { line, column } = locate.positionOf(duplicate.offset);
    throw new FileProblem(file, line, column, `duplicate key ${duplicate.value}; each key may appear once`);
  }
  return new JsonDocument(file, text, root, JSON.parse(text));
}

function findDuplicateKey(node: Node): Node | undefined {
  if (node.type === "object") {
    const seen = new Set<string>();
    for (const property of node.children ?? []) {
      const key = property.children?.[0];
      if (key && seen.has(String(key.value))) return { ...key, value: JSON.stringify(key.value) };
      if (key) seen.add(String(key.value));
    }
  }
  for (const child of node.children ?? []) {
    const found = findDuplicateKey(child);
    if (found) return found;
  }
  return undefined;
}
