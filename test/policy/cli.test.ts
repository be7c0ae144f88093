/** `toolrt check`, `policy validate|test|schema` and `trust` from the outside, as scripts see them. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { rules, runToolrt, sandbox } from "./helpers.ts";

const box = sandbox();
box.write(
  "managed/managed-policy.json",
  rules({ id: "no-force-push", effect: "deny", match: "Bash(git push --force:*)" }),
);

function toolrt(args: string[], stdin?: string) {
  return runToolrt(box, args, stdin);
}

const KEYS = ["tool", "decision", "reason", "matched", "checks", "warnings", "suggestions"];

describe("toolrt check", () => {
  test("--json has the cli.md shape and names the deciding rule", () => {
    const { code, out } = toolrt(["check", "--json", "Bash", "git push --force origin main"]);
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(Object.keys(json)).toEqual(expect.arrayContaining(KEYS));
    expect(json).toMatchObject({
      tool: "Bash",
      decision: "deny",
      checks: [],
      warnings: ["git push --force overwrites remote history"],
      suggestions: [],
    });
    expect(json.matched).toEqual([{
      source: "managed",
      file: join(box.managedDir, "managed-policy.json"),
      rule: "Bash(git push --force:*)",
      effect: "deny",
      id: "no-force-push",
    }]);
  });

  test("an ask's suggestion is a rule that, given, allows the call", () => {
    const calls: [string, string][] = [
      ["Write", JSON.stringify({ file_path: "src/new.ts", content: "" })],
      ["Write", JSON.stringify({ file_path: "/tmp/elsewhere/out.txt", content: "" })],
      ["Read", JSON.stringify({ file_path: "/etc/hostname" })],
      ["Bash", "sudo ls"],
      ["Bash", 'python3 -c "print(1)"'],
      ["Bash", "ls && rm -f build.log"],
    ];
    for (const [tool, input] of calls) {
      const asked = JSON.parse(toolrt(["check", "--json", tool, input]).out);
      expect(asked.decision).toBe("ask");
      expect(asked.suggestions.length).toBeGreaterThan(0);
      const allowed = JSON.parse(
        toolrt(["check", "--json", "--allow", asked.suggestions[0], tool, input]).out,
      );
      expect([tool, input, allowed.decision]).toEqual([tool, input, "allow"]);
    }
    expect(
      JSON.parse(toolrt(["check", "--json", "Write", '{"file_path":"a.txt","content":""}']).out).suggestions,
    )
      .toEqual(["Edit(./a.txt)"]);
  });

  test("no suggestion where the rule would match more than what is written (git -c globals)", () => {
    const asked = JSON.parse(toolrt(["check", "--json", "Bash", "git -c core.pager='sh -c id' log"]).out);
    expect(asked).toMatchObject({ decision: "ask", suggestions: [] });
  });

  test("human output is one readable line first, then the deciding rule", () => {
    const { code, out } = toolrt([
      "check",
      "--deny",
      "Bash(git:*)",
      "--allow",
      "Bash(git status:*)",
      "Bash",
      "git status",
    ]);
    expect(code).toBe(0);
    const [first, second] = out.split("\n");
    expect(first).toBe(
      "deny: Bash(git status) — Bash(git status:*) allowed by cli, but Bash(git:*) denies from cli",
    );
    expect(second).toBe("  decided by Bash(git:*) [--deny[0]] from cli (command line)");
  });

  test("an MCP tool that is not connected is decided by the rules alone", () => {
    const { out } = toolrt(["check", "--json", "--allow", "mcp__jira", "mcp__jira__create", "{}"]);
    expect(JSON.parse(out)).toMatchObject({ tool: "mcp__jira__create", decision: "allow" });
  });

  test("says when an allow was ignored because the workspace is not trusted", () => {
    box.write("work/.toolrt/policy.json", rules({ id: "make", effect: "allow", match: "Bash(make)" }));
    const { out } = toolrt(["check", "Bash", "make"]);
    expect(out).toContain("ignored: Bash(make) [make] from project");
    expect(out).toContain("the workspace is not trusted (toolrt trust)");
    expect(toolrt(["trust"]).out).toContain(`${box.cwd} is trusted`);
    expect(toolrt(["check", "Bash", "make"]).out).toStartWith("allow: Bash(make)");
    expect(toolrt(["trust", "--revoke"]).out).toContain("is not trusted any more");
  });

  test("--batch: one JSON object per line, same order, errors in place", () => {
    const { code, out } = toolrt(
      ["check", "--batch", "-", "Bash"],
      "ls -la\ngit push --force x\n\nnpm test\n",
    );
    expect(code).toBe(0);
    const lines = out.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    // `ls -la` is read-only inside the workspace; `npm test` matches no rule.
    expect(lines.map((l) => l.decision ?? "error")).toEqual(["allow", "deny", "error", "ask"]);
    expect(lines[1]).toMatchObject({ command: "git push --force x", tool: "Bash" });
    for (const key of KEYS) expect(lines[0]).toHaveProperty(key);
    expect(lines[2]).toEqual({ line: 3, error: "empty command" });
  });

  test("--batch-format json-lines reads JSON string literals", () => {
    const input = `${JSON.stringify("cat <<EOF\nx\nEOF")}\n42\n"git push --force y"\n`;
    const lines = toolrt(["check", "--batch", "-", "--batch-format", "json-lines", "Bash"], input).out
      .trimEnd()
      .split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.decision ?? l.error)).toEqual([
      "ask",
      "expected a JSON string literal",
      "deny",
    ]);
  });

  test("a broken project policy exits 2 with file:line:column", () => {
    const local = box.write(
      "bad/policy.json",
      '{"rules": [{"id": "a", "effect": "deny", "match": "Bash(git"}]}',
    );
    const { code, err } = toolrt(["check", "--policy", local, "Bash", "ls"]);
    expect(code).toBe(2);
    expect(err).toContain(`${local}:1:60: bad rule "Bash(git" at column 9`);
  });
});

describe("toolrt policy", () => {
  test("test prints failures and `N passed, M failed` last; exit 1 on failure", () => {
    const failing = box.write("t/failing.json", {
      rules: [],
      tests: [{ tool: "Bash", input: "ls", expect: "deny" }, { tool: "Bash", input: "ls", expect: "allow" }],
    });
    const { code, out } = toolrt(["policy", "test", failing]);
    expect(code).toBe(1);
    const lines = out.trimEnd().split("\n");
    expect(lines.at(-1)).toBe("1 passed, 1 failed");
    expect(lines[0]).toStartWith(`FAIL ${failing}:`);
  });

  test("test passes the shipped strict policy", () => {
    const { code, out } = toolrt(["policy", "test", join(import.meta.dir, "../../policy/strict.json")]);
    expect(code).toBe(0);
    expect(out.trimEnd().split("\n").at(-1)).toMatch(/^\d+ passed, 0 failed$/);
  });

  test("validate reports every error with file:line:column and exits 2", () => {
    const bad = box.write(
      "t/bad.json",
      '{\n  "rules": [\n    {"id": "a", "effect": "maybe", "match": "Bash"}\n  ],\n  "extra": 1\n}',
    );
    const { code, err } = toolrt(["policy", "validate", bad]);
    expect(code).toBe(2);
    expect(err).toContain(`${bad}:3:27: rules[0].effect: Invalid option`);
    expect(err).toContain(`${bad}:5:3: unknown field "extra"`);
  });

  test("schema prints the JSON Schema of policy files", () => {
    const schema = JSON.parse(toolrt(["policy", "schema"]).out);
    expect(schema.type).toBe("object");
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(["rules", "tests", "lock", "claudeSettings"]),
    );
    expect(schema.additionalProperties).toBe(false);
  });
});
