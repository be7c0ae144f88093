import { describe, expect, test } from "bun:test";
import { ALL_LAYERS, expandQuery } from "../../src/search/expand.ts";
import { EMPTY_TERM_MODEL, SHIPPED_TERM_MODEL, TermModel } from "../../src/search/term-model.ts";
import { stem } from "../../src/search/tokenize.ts";
import { ToolIndex } from "../../src/search/tool-index.ts";
import { handWrittenTools } from "./helpers.ts";

const tools = handWrittenTools({
  org: [
    ["list_repository_members", "Lists the members of a repository"],
    ["list_team_members", "Lists the members of a team"],
    ["delete_branch", "Deletes a branch"],
  ],
});
/** What a model learns: a crew is a team (and a word no tool uses for anything). */
const model = new TermModel(`${stem("crew")} ${stem("team")}:0.3 ${stem("zebra")}:0.9`);
const top = (index: ToolIndex, query: string) => index.search(query, 1).hits[0]?.name;

describe("learned vocabulary layer", () => {
  const learned = ToolIndex.build(tools, model);
  const bare = ToolIndex.build(tools, EMPTY_TERM_MODEL);

  test("a domain word reaches the tool word it was learned for", () => {
    expect(top(learned, "members of my crew")).toBe("mcp__org__list_team_members");
    expect(top(bare, "members of my crew")).not.toBe("mcp__org__list_team_members");
  });

  test("the learned word counts less than the word itself, and only when the layer is on", () => {
    const [group] = expandQuery("crew", learned.index, ALL_LAYERS, model).groups;
    expect(group).toEqual([{ term: stem("team"), weight: 0.6 }]);
    const off = expandQuery("crew", learned.index, { ...ALL_LAYERS, learned: false }, model).groups;
    expect(off).toEqual([]);
  });

  test("a learned word no tool uses is dropped, not searched", () => {
    const groups = expandQuery("crew", learned.index, ALL_LAYERS, model).groups.flat();
    expect(groups.map((t) => t.term)).not.toContain(stem("zebra"));
  });

  test("a word the model does not know changes nothing", () => {
    for (const query of ["list repository members", "remove the gizmo branch", "xyzzy"]) {
      expect(expandQuery(query, learned.index, ALL_LAYERS, model).groups)
        .toEqual(expandQuery(query, bare.index, ALL_LAYERS, EMPTY_TERM_MODEL).groups);
      expect(learned.search(query, 3).hits).toEqual(bare.search(query, 3).hits);
    }
  });

  test("a malformed table says which line is wrong and how to remake it", () => {
    expect(() => new TermModel("crew team").termsFor("crew")).toThrow(/line 1: "team".*search-learn/);
    expect(() => new TermModel("ok team:0.5\ncrew team:7").termsFor("ok")).toThrow(/line 2/);
  });
});

describe("the shipped table", () => {
  test("loads, and every entry is another term with a probability", () => {
    expect(SHIPPED_TERM_MODEL.size).toBeGreaterThan(100);
    const line = SHIPPED_TERM_MODEL.termsFor(stem("squad"));
    expect(line.map((t) => t.term)).toContain(stem("team"));
  });

  test("never maps a word to itself or to words as common as get and list", () => {
    for (const word of ["squad", "abandon", "restaurant", "buyer"]) {
      const terms = SHIPPED_TERM_MODEL.termsFor(stem(word)).map((t) => t.term);
      expect(terms.length).toBeGreaterThan(0);
      expect(terms).not.toContain(stem(word));
      expect(terms).not.toContain("get");
      expect(terms).not.toContain("list");
    }
  });
});
