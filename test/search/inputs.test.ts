import { describe, expect, test } from "bun:test";
import { catalogTools } from "../../src/search/catalog.ts";
import {
  COORDINATES,
  DATE,
  EMAIL,
  IDENTIFIER,
  inputFit,
  kindOfName,
  PATH,
  schemaInputs,
  suppliedInputs,
  URL,
} from "../../src/search/inputs.ts";
import { stem } from "../../src/search/tokenize.ts";
import { ToolIndex } from "../../src/search/tool-index.ts";
import { testLayerCases } from "./helpers.ts";

describe("what a tool requires, from its input schema's property names", () => {
  const cases: [string, number][] = [
    ["issue_iid", IDENTIFIER],
    ["projectId", IDENTIFIER],
    ["pull_number", IDENTIFIER],
    ["latitude", COORDINATES],
    ["recipient_email", EMAIL],
    ["pageUrl", URL],
    ["start_date", DATE],
    ["file_path", PATH],
    ["owner", 0],
    ["identity", 0],
    ["keyword", 0],
  ];
  for (const [name, kind] of cases) test(name, () => expect(kindOfName(name), name).toBe(kind));

  test("required kinds, nested ones (a list of points), and the things whose ids are required", () => {
    const inputs = schemaInputs({
      type: "object",
      properties: {
        project_id: { type: "string" },
        merge_request_iid: { type: "string" },
        path: { type: "array", items: { type: "object", properties: { latitude: {}, longitude: {} } } },
        since: { type: "string" },
      },
      required: ["project_id", "merge_request_iid", "path"],
    });
    expect(inputs.required).toBe(IDENTIFIER | PATH | COORDINATES);
    expect(inputs.accepted).toBe(IDENTIFIER | PATH | COORDINATES | DATE);
    expect(inputs.idNouns).toEqual(
      ["project", "merg", "request"].map((w) => stem(w === "merg" ? "merge" : w)),
    );
    expect(schemaInputs({ type: "object" })).toEqual({ required: 0, accepted: 0, idNouns: [] });
    expect(schemaInputs("not a schema")).toEqual({ required: 0, accepted: 0, idNouns: [] });
  });
});

describe("what a request supplies", () => {
  const cases: [string, number, string[]][] = [
    ["what is at 40.7128,-74.0060", COORDINATES, []],
    ["show issue 42 in acme/web", IDENTIFIER, ["issu"]],
    ["GitLab merge request !45 itself", IDENTIFIER, ["merg", "request"]],
    ["close ENG-42", IDENTIFIER, ["issu"]],
    ["scale to 5 replicas", 0, []],
    ["errors since March 3", DATE, []],
    ["invite jane@acme.com", EMAIL, []],
    ["fetch https://example.com/docs", URL, []],
    ["open ./src/a.ts", PATH, []],
  ];
  for (const [text, kinds, nouns] of cases) {
    test(text, () => {
      const supplied = suppliedInputs(text);
      expect(supplied.kinds, text).toBe(kinds);
      for (const noun of nouns) expect(supplied.idNouns, text).toContain(noun);
    });
  }

  test("fit: supplied kinds the tool takes, required ones double; an id of the thing it needs", () => {
    const tool = { required: COORDINATES, accepted: COORDINATES | DATE, idNouns: ["issu"] };
    expect(inputFit(suppliedInputs("40.1,-3.2"), tool)).toEqual({ given: 1, idNamed: 0 });
    expect(inputFit(suppliedInputs("40.1,-3.2 since May 2"), tool).given).toBe(0.75);
    expect(inputFit(suppliedInputs("issue 7"), tool)).toEqual({ given: 0, idNamed: 1 });
    expect(inputFit(suppliedInputs("nothing here"), tool)).toEqual({ given: 0, idNamed: 0 });
  });
});

describe("re-ranking near-identical tools by their inputs", () => {
  const tool = (name: string, description: string, properties: string[], required: string[]) => ({
    name,
    description,
    inputSchema: { type: "object", properties: Object.fromEntries(properties.map((p) => [p, {}])), required },
  });
  const index = ToolIndex.build(catalogTools({
    servers: [{
      name: "maps",
      tools: [
        tool("geocode", "Convert an address into geographic coordinates", ["address"], ["address"]),
        tool(
          "reverse_geocode",
          "Convert coordinates into an address",
          ["latitude", "longitude"],
          ["latitude", "longitude"],
        ),
      ],
    }, {
      name: "tracker",
      tools: [
        tool("list_issues", "List issues in a project", ["project_id", "state"], ["project_id"]),
        tool("get_issue", "Get an issue of a project", ["project_id", "issue_iid"], [
          "project_id",
          "issue_iid",
        ]),
      ],
    }],
  }));
  testLayerCases(index, "inputs", [
    ["address for coordinates 48.8584,2.2945", "mcp__maps__reverse_geocode"],
    // A plural reads as "many"; the id it gives says which tool takes it.
    ["issues 42 of project web", "mcp__tracker__get_issue"],
  ]);
});
