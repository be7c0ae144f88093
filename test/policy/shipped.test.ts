/** The shipped policies pass their own tests, and their tests can fail. */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBashSync } from "../../src/bash/analyze.ts";
import { loadBashParser } from "../../src/bash/parser.ts";
import { compilePolicyText } from "../../src/policy/policy-file.ts";
import { runPolicyTests } from "../../src/policy/policy-tests.ts";
import { sandbox } from "./helpers.ts";

const box = sandbox();
// The shipped tests are written for the real analyzer, as `toolrt policy test` runs them.
beforeAll(() => loadBashParser());
const options = () => ({ cwd: box.cwd, home: box.home, analyzeBash: analyzeBashSync });
const root = join(import.meta.dir, "../..");
const shipped = [
  "policy/default.json",
  "policy/strict.json",
  "policy/examples/managed-enterprise.json",
  "policy/examples/project-team.json",
];

function compile(relative: string, text = readFileSync(join(root, relative), "utf8")) {
  const anchors = { cwd: box.cwd, home: box.home, sourceBase: box.cwd };
  const source = relative.includes("managed") ? "managed" : "flag";
  return compilePolicyText(relative, text, { source, anchors, trusted: true });
}

describe("shipped policies", () => {
  for (const file of shipped) {
    test(`${file} is valid and passes its tests`, () => {
      const compiled = compile(file);
      expect(compiled.errors.map((e) => e.message)).toEqual([]);
      expect(compiled.warnings.map((e) => e.message)).toEqual([]);
      const outcomes = runPolicyTests(compiled.loaded!, options());
      expect(outcomes.length).toBeGreaterThanOrEqual(8);
      expect(outcomes.filter((o) => !o.passed).map((o) => `${o.name}: ${o.decision?.reason ?? o.error}`))
        .toEqual([]);
    });
  }

  test("a wrong expectation fails, with the file line and the decision's reason", () => {
    const text = JSON.stringify(
      { rules: [], tests: [{ tool: "Bash", input: "ls", expect: "deny" }] },
      null,
      2,
    );
    const outcomes = runPolicyTests(compile("x.json", text).loaded!, options());
    expect(outcomes).toEqual([expect.objectContaining({ passed: false, line: 4, expect: "deny" })]);
  });

  test("the embedded default is policy/default.json", async () => {
    const { EMBEDDED_DEFAULT_TEXT } = await import("../../src/policy/load.ts");
    expect(JSON.parse(EMBEDDED_DEFAULT_TEXT)).toEqual(
      JSON.parse(readFileSync(join(root, "policy/default.json"), "utf8")),
    );
  });
});
