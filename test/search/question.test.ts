import { describe, expect, test } from "bun:test";
import { questionGroup, stateTerms } from "../../src/search/question.ts";
import { stem } from "../../src/search/tokenize.ts";
import { ToolIndex } from "../../src/search/tool-index.ts";
import { handWrittenTools, testLayerCases } from "./helpers.ts";

const index = ToolIndex.build(handWrittenTools({
  ci: [
    ["get_pipeline_status", "Get the status of the latest pipeline"],
    ["run_passing_tests", "Run the tests of a pipeline that were passing before"],
  ],
  flags: [
    ["update_flag", "Change a feature flag"],
    ["get_audit_log", "Audit trail of a project"],
  ],
  files: [
    ["read_file", "Read a file"],
    ["search_files", "Search for files by name pattern"],
  ],
}));
const words = (text: string) => text.toLowerCase().split(" ");
const terms = (group: readonly { term: string }[] | undefined) => group?.map(({ term }) => term);

describe("questions", () => {
  test("a state word of a yes/no question stands for a status", () => {
    expect(terms(stateTerms(words("is the pipeline passing"), 3, index.index))).toEqual([
      stem("status"),
      stem("passing"),
    ]);
    // Not in a statement, nor before the question word.
    expect(stateTerms(words("run the passing tests"), 2, index.index)).toBeUndefined();
  });

  test("who or what changed asks for a history; where asks for a search", () => {
    expect(questionGroup(words("who changed the flag"), index.index)).toEqual({
      group: [{ term: stem("audit"), weight: 0.8 }, { term: stem("log"), weight: 0.6 }],
      at: 0,
    });
    expect(terms(questionGroup(words("where is the config file"), index.index)?.group)).toContain(
      stem("search"),
    );
    expect(questionGroup(words("who is on the team"), index.index)).toBeUndefined();
    expect(questionGroup(words("change the flag"), index.index)).toBeUndefined();
  });

  testLayerCases(index, "questions", [
    ["is the pipeline passing", "mcp__ci__get_pipeline_status"],
    ["who changed the checkout flag", "mcp__flags__get_audit_log"],
    ["where is the compose file", "mcp__files__search_files"],
  ]);
});
