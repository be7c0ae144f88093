/** `when` conditions: the facts object, the custom operations, and json-logic-js semantics. */
import { createRequire } from "node:module";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { compileCondition } from "../../src/policy/logic.ts";
import { analysis, bashCall, decideIn, rules, sandbox } from "./helpers.ts";

const jsonLogic = createRequire(import.meta.url)("json-logic-js") as {
  apply(logic: unknown, data: unknown): unknown;
};

describe("standard operations agree with json-logic-js", () => {
  const data = { a: 1, b: "x", list: [1, 2, 3], nested: { deep: true }, empty: [] };
  const expressions: unknown[] = [
    { "==": [{ var: "a" }, 1] },
    { "===": [{ var: "a" }, "1"] },
    { "!=": [{ var: "b" }, "y"] },
    { and: [true, { var: "nested.deep" }] },
    { or: [false, { var: "empty" }] },
    { "!": { var: "empty" } },
    { "!!": [{ var: "list" }] },
    { in: ["x", { var: "b" }] },
    { in: [2, { var: "list" }] },
    { "<": [0, { var: "a" }, 2] },
    { if: [{ var: "missing" }, true, false] },
    { some: [{ var: "list" }, { ">": [{ var: "" }, 2] }] },
    { all: [{ var: "list" }, { ">": [{ var: "" }, 0] }] },
    { none: [{ var: "list" }, { ">": [{ var: "" }, 5] }] },
    { ">=": [{ var: "nested.missing" }, 0] },
    { "==": [{ cat: ["a", { var: "b" }] }, "ax"] },
    { "==": [{ substr: ["hello", 1, 3] }, "ell"] },
    { "==": [{ var: ["nope", "fallback"] }, "fallback"] },
  ];
  for (const logic of expressions) {
    test(JSON.stringify(logic), () => {
      expect(compileCondition(logic)(data)).toBe(Boolean(truthy(jsonLogic.apply(logic, data))));
    });
  }
});

function truthy(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}

describe("custom operations", () => {
  const facts = { cwd: "/w", additionalDirs: ["/extra"], path: "/w/src/a.ts", argv: ["git", "push", "-f"] };
  const cases: [unknown, boolean][] = [
    [{ glob: ["/w/src/**", { var: "path" }] }, true],
    [{ glob: ["**/*.ts", { var: "path" }] }, true],
    [{ glob: ["/w/*.ts", { var: "path" }] }, false],
    [{ inside: [{ var: "path" }, "/w/src"] }, true],
    [{ inside: ["/wx/a", "/w"] }, false],
    [{ inWorkspace: [{ var: "path" }] }, true],
    [{ inWorkspace: ["/extra/b"] }, true],
    [{ inWorkspace: ["/etc/passwd"] }, false],
    [{ some: [{ var: "argv" }, { inWorkspace: ["/w/x"] }] }, true],
    [{ prefix: [{ var: "argv" }, ["git", "push"]] }, true],
    [{ prefix: [{ var: "argv" }, ["git", "pull"]] }, false],
    [{ prefix: ["npm run build", "npm run"] }, true],
    [{ "==": [{ host: ["https://API.Example.com./x"] }, "api.example.com"] }, true],
    [{ "==": [{ host: ["not a url"] }, null] }, true],
  ];
  for (const [logic, expected] of cases) {
    test(`${JSON.stringify(logic)} → ${expected}`, () =>
      expect(compileCondition(logic)(facts)).toBe(expected));
  }

  test("a condition that throws does not match", () => {
    expect(compileCondition({ throw: "boom" })({})).toBe(false);
  });
});

describe("the facts object", () => {
  const box = sandbox();
  const load = (when: unknown, extra: Record<string, unknown> = {}) => {
    const file = box.write(
      "f.json",
      rules({ id: "r", effect: "deny", tool: ["Bash", "Read", "Agent"], when, ...extra }),
    );
    const loaded = box.load({ flagFiles: [file] });
    expect(loaded.errors).toEqual([]);
    return loaded;
  };

  test("tool, input, cwd, mode", () => {
    const loaded = load({
      and: [
        { "==": [{ var: "tool" }, "Read"] },
        { "==": [{ var: "input.limit" }, 5] },
        { "==": [{ var: "cwd" }, box.cwd] },
        { "==": [{ var: "mode" }, "plan"] },
      ],
    });
    const call = { tool: "Read", input: { file_path: "a", limit: 5 }, mode: "plan" as const };
    expect(decideIn(box, loaded, call).decision).toBe("deny");
    expect(decideIn(box, loaded, { ...call, mode: "default" }).decision).toBe("allow");
  });

  test("path is absolute for file tools", () => {
    const loaded = load({ "==": [{ var: "path" }, join(box.cwd, "src/a.ts")] });
    expect(decideIn(box, loaded, { tool: "Read", input: { file_path: "src/a.ts" } }).decision).toBe("deny");
  });

  test("agent.depth and agent.type", () => {
    const loaded = load({
      and: [{ ">": [{ var: "agent.depth" }, 0] }, { "==": [{ var: "agent.type" }, "Explore"] }],
    });
    const call = { tool: "Agent", input: {} };
    expect(decideIn(box, loaded, { ...call, agent: { depth: 1, type: "Explore" } }).decision).toBe("deny");
    expect(decideIn(box, loaded, { ...call, agent: { depth: 0 } }).decision).toBe("ask");
  });

  test("command.name, command.argv and command.prefix per sub-command", () => {
    const loaded = load({
      and: [
        { "==": [{ var: "command.name" }, "git"] },
        { "==": [{ var: "command.prefix" }, "git push"] },
        { in: ["--force", { var: "command.argv" }] },
      ],
    });
    const a = analysis("ls && git push --force", ["ls", "git push --force"]);
    expect(decideIn(box, loaded, bashCall(a.command, a)).decision).toBe("deny");
    const b = analysis("ls && git push", ["ls", "git push"]);
    expect(decideIn(box, loaded, bashCall(b.command, b)).decision).toBe("ask");
  });

  test("bash.checks lists the fired check ids", () => {
    const loaded = load({ in: [8, { var: "bash.checks" }] });
    const a = analysis("echo $(x)", ["echo $(x)"], { checks: [{ id: 8, name: "SUBST", message: "m" }] });
    expect(decideIn(box, loaded, bashCall(a.command, a)).decision).toBe("deny");
  });

  test("a when on a path rule sees each path", () => {
    const file = box.write(
      "g.json",
      rules({ id: "big", effect: "ask", match: "Read(./**)", when: { glob: ["**/*.log", { var: "path" }] } }),
    );
    const loaded = box.load({ flagFiles: [file] });
    expect(decideIn(box, loaded, { tool: "Read", input: { file_path: "x/app.log" } }).decision).toBe("ask");
    expect(decideIn(box, loaded, { tool: "Read", input: { file_path: "x/app.ts" } }).decision).toBe("allow");
  });
});
