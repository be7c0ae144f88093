import { describe, expect, test } from "bun:test";
import {
  LEARNER_OPTIONS,
  learnTerms,
  serializeTable,
  toolTerms,
  type TrainingPair,
} from "../../bench/support/term-learner.ts";
import { stem } from "../../src/search/tokenize.ts";
import { handWrittenTools } from "./helpers.ts";

const tools = handWrittenTools({
  crm: [
    ["delete_contact", "Deletes a contact"],
    ["create_contact", "Creates a contact"],
    ["get_contact", "Gets a contact"],
  ],
  files: [
    ["delete_file", "Deletes a file"],
    ["create_file", "Creates a file"],
    ["get_file", "Gets a file"],
  ],
  notes: [["delete_note", "Deletes a note"], ["get_note", "Gets a note"]],
});
const pairs: TrainingPair[] = [
  ["forget the contact Ann", "mcp__crm__delete_contact"],
  ["forget contact 42", "mcp__crm__delete_contact"],
  ["forget the file notes.txt", "mcp__files__delete_file"],
  ["make a contact for Bo", "mcp__crm__create_contact"],
  ["make a file", "mcp__files__create_file"],
  ["show contact 7", "mcp__crm__get_contact"],
  ["show the file", "mcp__files__get_file"],
  ["forget my note", "mcp__notes__delete_note"],
].map(([request, tool]) => ({ request: request!, tool: tool! }));
// Small catalog: no word is too common to learn.
const options = { ...LEARNER_OPTIONS, maxTargetShare: 1 };

describe("term learner", () => {
  const table = learnTerms(pairs, toolTerms(tools, options), options);

  test("a request word learns the tool word its tools share across servers", () => {
    expect(table.get(stem("forget"))?.[0]?.[0]).toBe(stem("delete"));
  });

  test("a word seen with one server's tools only is not learned", () => {
    const oneServer = pairs.filter((p) => p.tool.startsWith("mcp__crm__"));
    expect(learnTerms(oneServer, toolTerms(tools, options), options).get(stem("forget"))).toBeUndefined();
  });

  test("the same pairs give the same table, byte for byte", () => {
    expect(serializeTable(learnTerms(pairs, toolTerms(tools, options), options))).toBe(serializeTable(table));
  });

  test("a pair for a tool the catalog lacks is an error naming it", () => {
    expect(() => learnTerms([{ request: "x", tool: "mcp__crm__nope" }], toolTerms(tools, options), options))
      .toThrow(/no tool mcp__crm__nope/);
  });
});
