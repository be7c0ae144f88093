import { describe, expect, test } from "bun:test";
import { isPlural, MANY, ONE, queryNumber, toolNumber } from "../../src/search/number.ts";
import { ToolIndex } from "../../src/search/tool-index.ts";
import { handWrittenTools, testLayerCases } from "./helpers.ts";

describe("number", () => {
  test("plurals", () => {
    for (const word of ["issues", "entries", "branches", "logs"]) expect(isPlural(word)).toBe(true);
    for (const word of ["status", "access", "analysis", "does", "issue", "is"]) {
      expect(isPlural(word)).toBe(false);
    }
  });

  test("a tool gives many by its verb, a quantifier or its last noun that is no aspect", () => {
    expect(toolNumber(["list", "issue"])).toBe(MANY);
    expect(toolNumber(["batch", "create", "objects"])).toBe(MANY);
    expect(toolNumber(["get", "project", "issues"])).toBe(MANY);
    expect(toolNumber(["get", "issue"])).toBe(ONE);
    expect(toolNumber(["get", "file", "contents"])).toBe(ONE);
    expect(toolNumber(["run"])).toBe(0);
  });

  test("a request asks for many by plurals, quantifiers and counts, for one by identifiers", () => {
    expect(queryNumber("show my issues")).toBe(MANY);
    expect(queryNumber("push 100 messages at once")).toBe(MANY);
    expect(queryNumber("show issue #42")).toBe(ONE);
    expect(queryNumber("who approved PR 88?")).toBe(ONE);
    expect(queryNumber("details of ENG-512")).toBe(ONE);
    expect(queryNumber("how many is too much")).toBe(0);
    expect(queryNumber("open a PR")).toBe(0);
  });

  const index = ToolIndex.build(handWrittenTools({
    tracker: [["list_issues", "Issues of a project"], ["get_issue", "An issue of a project"]],
  }));
  testLayerCases(index, "number", [["issue #42 of the project", "mcp__tracker__get_issue"]]);
});
