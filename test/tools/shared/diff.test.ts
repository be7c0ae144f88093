import { expect, test } from "bun:test";
import { diffLines, diffStats, formatHunks } from "../../../src/render/diff.ts";

test("a change far from another gets its own hunk with three lines of context", () => {
  const before = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join("\n") + "\n";
  const after = before.replace("l2\n", "L2\n").replace("l18\n", "L18\n");
  const hunks = diffLines(before, after);
  expect(hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines])).toEqual([[1, 5, 1, 5], [
    15,
    6,
    15,
    6,
  ]]);
  expect(diffStats(hunks)).toEqual({ added: 2, removed: 2 });
});

test("nearby changes share one hunk; inserted lines align around common ones", () => {
  const hunks = diffLines("a\nb\nc\nd\n", "a\nx\nb\nc\ny\nd\n");
  expect(hunks).toHaveLength(1);
  expect(formatHunks(hunks)).toBe("@@ -1,4 +1,6 @@\n a\n+x\n b\n c\n+y\n d");
});

test("creating from nothing is all additions; identical texts have no hunks", () => {
  expect(formatHunks(diffLines("", "new\n"))).toBe("@@ -1,0 +1,1 @@\n+new");
  expect(diffLines("same\n", "same\n")).toEqual([]);
});
