import { describe, expect, test } from "bun:test";
import { parseRuleString, ruleCoversToolName } from "../../src/policy/rule-string.ts";

describe("parseRuleString", () => {
  const cases: [string, { toolName: string; specifier?: string }][] = [
    ["Bash", { toolName: "Bash" }],
    ["Bash(*)", { toolName: "Bash" }],
    ["Bash(git commit:*)", { toolName: "Bash", specifier: "git commit:*" }],
    ["Read(./src/**)", { toolName: "Read", specifier: "./src/**" }],
    ["Bash(echo (a))", { toolName: "Bash", specifier: "echo (a)" }],
    ["  WebFetch(domain:example.com)  ", { toolName: "WebFetch", specifier: "domain:example.com" }],
    ["mcp__github__get_*", { toolName: "mcp__github__get_*" }],
  ];
  for (const [raw, expected] of cases) {
    test(`parses ${raw}`, () => {
      const { raw: _raw, ...parsed } = parseRuleString(raw);
      expect(parsed).toEqual(expected);
    });
  }
  const bad: [string, RegExp][] = [
    ["", /empty rule/],
    ["Bash(", /missing closing/],
    ["Bash()", /empty specifier/],
    ["(ls)", /missing tool name/],
    ["Ba sh", /unexpected character " "/],
    ["Bash)", /`\)` without `\(`/],
  ];
  for (const [raw, message] of bad) {
    test(`rejects ${JSON.stringify(raw)} with a message`, () => {
      expect(() => parseRuleString(raw)).toThrow(message);
    });
  }
});

describe("ruleCoversToolName", () => {
  test("exact names, globs over the whole name, and MCP server rules", () => {
    expect(ruleCoversToolName("Bash", "Bash")).toBe(true);
    expect(ruleCoversToolName("Bash", "BashX")).toBe(false);
    expect(ruleCoversToolName("*", "Anything")).toBe(true);
    expect(ruleCoversToolName("mcp__github", "mcp__github__x")).toBe(true);
    expect(ruleCoversToolName("mcp__github", "mcp__githubx__x")).toBe(false);
    expect(ruleCoversToolName("mcp__github__*", "mcp__github__x")).toBe(true);
    expect(ruleCoversToolName("mcp__github__x", "mcp__github__xy")).toBe(false);
    expect(ruleCoversToolName("Web.Fetch", "WebXFetch")).toBe(false);
  });
});
