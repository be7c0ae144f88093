import { describe, expect, test } from "bun:test";
import { isIdentifier, kindWords } from "../../src/search/identifiers.ts";
import { ToolIndex } from "../../src/search/tool-index.ts";
import { handWrittenTools, testLayerCases } from "./helpers.ts";

describe("identifiers", () => {
  test("ids, keys, versions, URLs and e-mails; not product names", () => {
    for (const token of ["ENG-42", "v2.3.0", "1a2b3c", "ch_123", "session:42", "jane@acme.com", "#42"]) {
      expect(isIdentifier(token.toLowerCase())).toBe(true);
    }
    for (const token of ["s3", "ec2", "k8s", "issue", "42"]) expect(isIdentifier(token)).toBe(false);
  });

  test("tracker keys name issues, #names channels", () => {
    expect(kindWords("who is watching PROJ-7 and ENG-42")).toEqual(
      new Map([["proj", "issue"], ["eng", "issue"]]),
    );
    expect(kindWords("what's new in #team-ops")).toEqual(new Map([["team", "channel"]]));
    expect(kindWords("logs-2024 and #42")).toEqual(new Map());
  });

  const index = ToolIndex.build(handWrittenTools({
    tracker: [["get_project", "Get details of a project"], ["get_issue", "Get an issue by its id"]],
    chat: [["channel_history", "Read the recent messages of a channel"], [
      "general_settings",
      "General settings",
    ]],
  }));
  testLayerCases(index, "kinds", [
    ["details of PROJ-7", "mcp__tracker__get_issue"],
    ["what's new in #general", "mcp__chat__channel_history"],
  ]);
});
