import { describe, expect, test } from "bun:test";
import { analyze, analyzeWord, surfaceWords } from "../../src/search/tokenize.ts";

describe("surfaceWords", () => {
  const cases: [string, string[]][] = [
    ["mcp__github__create_pull_request", ["mcp", "github", "create", "pull", "request"]],
    ["linear_getActiveCycle", ["linear", "get", "active", "cycle"]],
    ["API-post-search", ["api", "post", "search"]],
    ["listRepositoriesByNamespace", ["list", "repositories", "by", "namespace"]],
    ["r2_put_object S3Tables", ["r2", "put", "object", "s3", "tables"]],
    ["Überprüfe die Straße", ["überprüfe", "die", "straße"]],
    ["emoji 🙂 between", ["emoji", "between"]],
    ["", []],
  ];
  for (const [text, words] of cases) {
    test(JSON.stringify(text), () => expect(surfaceWords(text), text).toEqual(words));
  }
});

describe("analyze", () => {
  test("drops stop words and stems", () => {
    expect(analyze("Creates the pull requests")).toEqual(["creat", "pull", "request"]);
  });
  test("spells out abbreviations the same way on both sides", () => {
    expect(analyze("open a PR")).toEqual(analyze("open pull request"));
    expect(analyze("k8s pods")).toEqual(analyze("kubernetes pods"));
  });
  test("shell commands and irregular verb forms meet the words tools use", () => {
    expect(analyze("mkdir")).toEqual(analyze("make directory"));
    expect(analyzeWord("rm")).toEqual(analyzeWord("remove"));
    expect(analyzeWord("sent")).toEqual(analyzeWord("send"));
    expect(analyzeWord("wrote")).toEqual(analyzeWord("write"));
  });
  test("one word: abbreviation spelled out, stop word dropped, stemmed", () => {
    expect(analyzeWord("prs")).toEqual(["pull", "request"]);
    expect(analyzeWord("the")).toEqual([]);
    expect(analyzeWord("screenshots")).toEqual(["screenshot"]);
  });
});
