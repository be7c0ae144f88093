import { expect, test } from "bun:test";
import { formatDiagnostics } from "../../../src/tools/lsp/diagnostics.ts";
import type { Diagnostic } from "../../../src/lsp/protocol.ts";

const at = (line: number, severity: Diagnostic["severity"], message: string): Diagnostic => ({
  range: { start: { line, character: 4 }, end: { line, character: 8 } },
  severity,
  message,
});

test("errors come first, then by position; positions are 1-based", () => {
  const text = formatDiagnostics("/ws/src/a.ts", "/ws", [
    at(1, 2, "unused"),
    at(9, 1, "later error"),
    at(3, 1, "first error\nwith a second line"),
  ]);
  expect(text).toBe(
    "Diagnostics for src/a.ts (2 errors, 3 diagnostics in all):\n" +
      "  4:5 error: first error\n" +
      "  10:5 error: later error\n" +
      "  2:5 warning: unused",
  );
});

test("the list is bounded and says how many were left out", () => {
  const many = Array.from({ length: 30 }, (_, i) => at(i, 1, `e${i}`));
  const lines = formatDiagnostics("/ws/a.ts", "/ws", many, 5).split("\n");
  expect(lines).toHaveLength(7);
  expect(lines.at(-1)).toBe("  ... and 25 more");
});

test("a clean file says so", () => {
  expect(formatDiagnostics("/ws/a.ts", "/ws", [])).toBe("No diagnostics for a.ts.");
});
