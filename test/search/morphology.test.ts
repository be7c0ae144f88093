import { describe, expect, test } from "bun:test";
import { expandQuery } from "../../src/search/expand.ts";
import { derivedTerms, negatedTerm } from "../../src/search/morphology.ts";
import { stem } from "../../src/search/tokenize.ts";
import { ToolIndex } from "../../src/search/tool-index.ts";
import { handWrittenTools, testLayerCases } from "./helpers.ts";

const index = ToolIndex.build(handWrittenTools({
  tracker: [
    ["add_watcher", "Adds a user to the people notified of an issue's changes"],
    ["get_issue", "Gets an issue with its fields"],
    ["create_space", "Creates a space"],
    ["create_folder", "Creates a folder in a space"],
    ["list_spaces", "Lists the spaces"],
  ],
  git: [
    ["git_diff_unstaged", "Shows changes in the working tree"],
    ["git_diff_staged", "Shows staged changes"],
  ],
}));
const derived = (query: string, at: number) => {
  const words = query.split(" ");
  return derivedTerms(words, at, index.index);
};

describe("derivedTerms", () => {
  test("a verb meets its doer; a doer the tools use stays itself", () => {
    expect(derived("watch the issue", 0)).toEqual([stem("watcher")]);
    expect(derived("list watchers", 1)).toEqual([]);
  });

  test("a word after a negation means the tools' un- word", () => {
    expect(negatedTerm("changes not staged".split(" "), 2, index.index)).toBe(stem("unstaged"));
    expect(negatedTerm("changes staged".split(" "), 1, index.index)).toBeUndefined();
  });

  test("an unknown compound meets its head: a subfolder is a folder", () => {
    expect(derived("make a subfolder", 2)).toEqual([stem("folder")]);
    expect(derived("foldersspaces", 0)).toEqual([]);
  });

  test("a word the tools use is not taken apart", () => {
    expect(derived("folder", 0)).toEqual([]);
  });
});

describe("morphology layer", () => {
  testLayerCases(index, "morphology", [
    ["watch a ticket", "mcp__tracker__add_watcher"],
    ["diff of changes not staged", "mcp__git__git_diff_unstaged"],
    ["new subfolder", "mcp__tracker__create_folder"],
  ]);

  test("derived words count less than the word typed", () => {
    const [group] = expandQuery("watch", index.index).groups;
    expect(group?.find((t) => t.term === stem("watcher"))?.weight).toBeLessThan(1);
  });
});
