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

  test("file names, web addresses and latitude-longitude pairs say their kind", () => {
    expect(kindWords("how big is config.yaml")).toEqual(new Map([["yaml", "file"]]));
    expect(kindWords("read a.ts, b.ts")).toEqual(new Map([["ts", "file"]]));
    expect(kindWords("open docs.example.com and v2.3.0")).toEqual(new Map());
    expect(kindWords("read https://example.com/changelog")).toEqual(
      new Map([["example", ""], ["com", ""], ["changelog", ""], ["https", "url"]]),
    );
    expect(kindWords("which street is at 40.7128,-74.0060")).toEqual(new Map([["40", "coordinates"]]));
  });

  const index = ToolIndex.build(handWrittenTools({
    tracker: [["get_project", "Get details of a project"], ["get_issue", "Get an issue by its id"]],
    chat: [["channel_history", "Read the recent messages of a channel"], [
      "general_settings",
      "General settings",
    ]],
    files: [["get_file_info", "Metadata of a file"], ["get_config", "Read the configuration"]],
    web: [["fetch", "Fetch a URL"], ["get_changelog", "Read the changelog of a release"]],
    maps: [["reverse_geocode", "Coordinates to an address"], ["search_places", "Search places by name"]],
  }));
  testLayerCases(index, "kinds", [
    ["details of PROJ-7", "mcp__tracker__get_issue"],
    ["what's new in #general", "mcp__chat__channel_history"],
    ["info on config.yaml", "mcp__files__get_file_info"],
    ["read https://example.com/changelog", "mcp__web__fetch"],
    ["near 40.7128,-74.0060", "mcp__maps__reverse_geocode"],
  ]);
});
