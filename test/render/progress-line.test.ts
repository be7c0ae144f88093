import { expect, test } from "bun:test";
import { progressLine } from "../../src/render/progress-line.ts";

/** What a terminal shows of `written`: `\r` goes to the line's start, ESC[K erases to its end. */
function screen(written: string): string {
  const lines = [""];
  let column = 0;
  for (let i = 0; i < written.length; i++) {
    const row = lines.length - 1;
    if (written.startsWith("\x1b[K", i)) {
      lines[row] = lines[row]!.slice(0, column);
      i += 2;
    } else if (written[i] === "\r") column = 0;
    else if (written[i] === "\n") {
      lines.push("");
      column = 0;
    } else {
      const line = lines[row]!;
      lines[row] = line.slice(0, column) + written[i] + line.slice(column + 1);
      column++;
    }
  }
  return lines.join("\n");
}

test("the status line shows progress, never the output itself, and is gone once cleared", () => {
  let written = "";
  const line = progressLine("Bash", (text) => (written += text), 80);
  line.update({ message: "secret-looking output\n" });
  expect(screen(written)).toMatch(/^Bash running: 22 B of output so far \(\d+ s\)$/);
  line.update({ message: "more\n" });
  expect(screen(written)).toMatch(/^Bash running: 27 B of output so far/);
  expect(written).not.toContain("secret-looking output");
  line.clear();
  expect(screen(written)).toBe("");
});

test("the status line fits a narrow terminal, and clearing without progress writes nothing", () => {
  let written = "";
  const line = progressLine("Bash", (text) => (written += text), 12);
  line.clear();
  expect(written).toBe("");
  line.update({ message: "x" });
  expect(screen(written).length).toBeLessThanOrEqual(11);
});
