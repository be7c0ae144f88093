/** Malformed policy files: each problem at file:line:column with what is expected. */
import { describe, expect, test } from "bun:test";
import { compilePolicyText } from "../../src/policy/policy-file.ts";

const context = {
  source: "project" as const,
  anchors: { cwd: "/w", home: "/h", sourceBase: "/w" },
  trusted: true,
};
const problems = (text: string) => compilePolicyText("p.json", text, context).errors.map((e) => e.message);
const rule = (fields: string) => `{\n  "rules": [\n    { ${fields} }\n  ]\n}`;

const cases: [string, string, string][] = [
  ["not JSON", "policy: yes", "p.json:1:1: not valid JSON: unexpected character; expected a JSON value"],
  ["empty file", "  \n", "p.json:1:1: the file is empty; expected a JSON object"],
  [
    "trailing comma",
    '{"rules": [],}',
    "p.json:1:14: not valid JSON: expected a property name in double quotes",
  ],
  [
    "comment",
    '{\n  // allow npm\n  "rules": []\n}',
    'p.json:2:3: not valid JSON: comments are not allowed in JSON; put notes in a "description" field',
  ],
  ["unclosed object", '{"rules": []', "p.json:1:13: not valid JSON: expected '}' to close the object"],
  [
    "two values",
    "{}\n{}",
    "p.json:2:1: not valid JSON: expected the end of the file after the top-level value",
  ],
  [
    "duplicate key",
    '{\n  "rules": [],\n  "rules": []\n}',
    'p.json:3:3: duplicate key "rules"; each key may appear once',
  ],
  ["top level array", "[]", 'p.json:1:1: expected a JSON object with "rules" (and optionally "tests")'],
  [
    "except on a command rule",
    '{"rules": [\n  {"id": "x", "effect": "ask", "match": "Bash(git:*)", "except": "Bash(git status)"}\n]}',
    'p.json:2:56: "except" applies to path rules only (Read(...), Edit(...))',
  ],
  [
    "except that is not a path rule",
    '{"rules": [\n  {"id": "x", "effect": "ask", "match": "Read(.env.*)", "except": ["Bash(ls)"]}\n]}',
    "p.json:2:68: expected a path rule such as Read(.env.example)",
  ],
  [
    "unknown top-level field",
    '{\n  "rulez": []\n}',
    'p.json:2:3: unknown field "rulez"; expected one of: $schema, description, lock, disableBypassPermissions, claudeSettings, disable, allowDisable, allowedPlugins, hooks, sandbox, tools, telemetry, rules, tests',
  ],
  [
    "unknown rule field",
    rule('"id": "a", "effect": "deny", "match": "Bash", "priority": 1'),
    'p.json:3:53: unknown field "priority" in rules[0]; expected one of: id, effect, match, tool, except, when, reason, description',
  ],
  [
    "bad effect",
    rule('"id": "a", "effect": "block", "match": "Bash"'),
    'p.json:3:28: rules[0].effect: Invalid option: expected one of "allow"|"ask"|"deny"',
  ],
  [
    "missing id",
    rule('"effect": "deny", "match": "Bash"'),
    "p.json:3:5: rules[0].id: Invalid input: expected string, received undefined",
  ],
  [
    "match and tool missing",
    rule('"id": "a", "effect": "deny"'),
    'p.json:3:5: rules[0]: a rule needs "match" (rule strings) or "tool" (tool names)',
  ],
  [
    "match of the wrong type",
    rule('"id": "a", "effect": "deny", "match": 7'),
    "p.json:3:45: rules[0].match: Invalid input",
  ],
  [
    "unclosed rule string",
    rule('"id": "a", "effect": "deny", "match": ["Read", "Bash(git"]'),
    'p.json:3:63: bad rule "Bash(git" at column 9: missing closing `)`; expected `Tool(specifier)`',
  ],
  [
    "bad tool name",
    rule('"id": "a", "effect": "deny", "match": "Ba sh"'),
    'p.json:3:48: bad rule "Ba sh" at column 3: unexpected character " " in tool name',
  ],
  [
    "empty specifier",
    rule('"id": "a", "effect": "deny", "match": "Bash()"'),
    'p.json:3:51: bad rule "Bash()" at column 6: empty specifier; write the bare tool name instead',
  ],
  [
    "unknown JSON-Logic operation",
    rule('"id": "a", "effect": "deny", "tool": "Bash", "when": {"and": [true, {"regex": ["x"]}]}'),
    'p.json:3:76: bad "when": unknown operation "regex"; expected a JSON-Logic operation or one of glob, inside, inWorkspace, prefix, host',
  ],
  [
    "bad JSON-Logic arguments",
    rule('"id": "a", "effect": "deny", "tool": "Bash", "when": {"or": [{"<": [1]}]}'),
    'p.json:3:68: bad "when": invalid arguments for this operation; see the JSON-Logic operation\'s arity',
  ],
  [
    "operation object with two keys",
    rule('"id": "a", "effect": "deny", "tool": "Bash", "when": {"==": [1, 1], "!=": [1, 2]}'),
    'p.json:3:60: bad "when": an operation is an object with exactly one key, found 2: ["==","!="]',
  ],
  [
    "duplicate rule id",
    '{"rules": [{"id": "a", "effect": "deny", "match": "Bash"}, {"id": "a", "effect": "ask", "match": "Read"}]}',
    'p.json:1:67: duplicate rule id "a"; ids must be unique in a file',
  ],
  [
    "bad test expectation",
    '{"tests": [{"tool": "Bash", "input": "ls", "expect": "yes"}]}',
    'p.json:1:54: tests[0].expect: Invalid option: expected one of "allow"|"ask"|"deny"',
  ],
  [
    "unknown test field",
    '{"tests": [{"tool": "Bash", "input": "ls", "expect": "deny", "why": 1}]}',
    'p.json:1:62: unknown field "why" in tests[0]; expected one of: name, tool, input, expect, mode, readOnly, agent',
  ],
  [
    "bad mode in a test",
    '{"tests": [{"tool": "Bash", "input": "ls", "expect": "deny", "mode": "yolo"}]}',
    'p.json:1:70: tests[0].mode: Invalid option: expected one of "default"|"acceptEdits"|"plan"|"bypassPermissions"|"dontAsk"',
  ],
];

describe("malformed policy files", () => {
  for (const [name, text, message] of cases) {
    test(name, () => {
      const found = problems(text);
      expect(found.length, JSON.stringify(found)).toBeGreaterThan(0);
      expect(found[0]).toStartWith(message);
    });
  }
  test(`${cases.length} distinct malformations are covered`, () => {
    expect(new Set(cases.map((c) => c[2])).size).toBeGreaterThanOrEqual(15);
  });
});

describe("skipped rules are warnings with positions", () => {
  test("an allow with a bare glob", () => {
    const result = compilePolicyText("p.json", rule('"id": "a", "effect": "allow", "match": "*"'), context);
    expect(result.errors).toEqual([]);
    expect(result.warnings[0]!.message).toStartWith('p.json:3:46: rule "*" is skipped: allow rules may glob');
  });
});
