import { describe, expect, test } from "bun:test";
import { parseQuery } from "../../src/search/query.ts";

describe("parseQuery", () => {
  test("select: names, trimmed and deduplicated", () => {
    expect(parseQuery("select:Read, Edit,Read")).toEqual({ kind: "select", names: ["Read", "Edit"] });
    expect(parseQuery("  SELECT : a")).toEqual({ kind: "select", names: ["a"] });
    expect(parseQuery("select:")).toEqual({ kind: "select", names: [] });
  });
  test("+terms are required (lower-cased) and still ranked on", () => {
    expect(parseQuery("+Slack send message")).toEqual({
      kind: "search",
      required: ["slack"],
      text: "slack send message",
    });
    expect(parseQuery("+a +b c")).toEqual({ kind: "search", required: ["a", "b"], text: "a b c" });
  });
  test("a lone + is ignored; plain words are keywords", () => {
    expect(parseQuery("+ open a PR")).toEqual({ kind: "search", required: [], text: "open a PR" });
  });
  test("empty and full-width input", () => {
    expect(parseQuery("")).toEqual({ kind: "search", required: [], text: "" });
    // NFKC folds full-width letters and signs, as some keyboards type them.
    expect(parseQuery("＋ｓｌａｃｋ send")).toEqual({
      kind: "search",
      required: ["slack"],
      text: "slack send",
    });
  });
});
