import { describe, expect, test } from "bun:test";
import { allowedEdits, TypoCorrector } from "../../src/search/typo.ts";
import { editDistance } from "../../src/tool/closest-names.ts";

describe("editDistance", () => {
  const cases: [string, string, number][] = [
    ["screenshot", "screenshot", 0],
    ["screnshot", "screenshot", 1],
    ["jria", "jira", 1], // a swap of neighbours is one edit
    ["kuberntes", "kubernetes", 1],
    ["terrafrom", "terraform", 1],
    ["promethues", "prometheus", 1],
    ["slack", "stack", 1],
    ["abc", "xyz", 3],
  ];
  for (const [a, b, distance] of cases) {
    test(`${a} → ${b}`, () => expect(editDistance(a, b, 3), `${a} vs ${b}`).toBe(distance));
  }
  test("gives up past the limit", () => expect(editDistance("kubernetes", "prometheus", 2)).toBe(3));
});

describe("TypoCorrector", () => {
  const corrector = new TypoCorrector([
    "screenshot",
    "message",
    "messages",
    "jira",
    "issue",
    "slack",
    "stack",
  ]);
  test("finds words within the allowed distance, nearest first", () => {
    expect(corrector.corrections("mesage").map((c) => c.word)).toEqual(["message"]);
    expect(corrector.corrections("scrennshot")).toEqual([{ word: "screenshot", distance: 1 }]);
  });
  test("short words are never corrected (too many real words are one edit apart)", () => {
    expect(allowedEdits("pod")).toBe(0);
    expect(corrector.corrections("iss")).toEqual([]);
  });
});
