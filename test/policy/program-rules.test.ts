/**
 * Which deny and ask rules name a bare program (the sandbox keeps those programs from starting),
 * and which programs an approved line names itself (those stay runnable for its run).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { loadBashParser } from "../../src/bash/parser.ts";
import { loadPolicy } from "../../src/policy/load.ts";
import { bareProgram, masksForLine, namedPrograms, programMasks } from "../../src/policy/program-rules.ts";
import { compileRuleList, type ListedRule } from "../../src/policy/rule-list.ts";
import type { Effect } from "../../src/policy/types.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

beforeAll(async () => {
  await loadBashParser();
});

function compiled(rules: Array<[Effect, string]>, extra: Partial<ListedRule> = {}) {
  const listed = rules.map(([effect, rule], i) => ({ rule, effect, id: `r${i}`, ...extra }));
  const out = compileRuleList(listed, {
    source: "user",
    file: "/u/policy.json",
    anchors: anchors(),
    trusted: true,
  });
  expect(out.problems).toEqual([]);
  return out.rules;
}

const anchors = () => ({ cwd: "/w", home: "/h", sourceBase: "/w" });

describe("bareProgram: a rule whose pattern is one program, with or without arguments", () => {
  test.each([
    ["Bash(curl:*)", "curl"],
    ["Bash(curl)", "curl"],
    ["Bash(rm:*)", "rm"],
    ["Bash(wget *)", "wget"],
    ["Bash(/usr/bin/curl:*)", "curl"],
    ["Bash(git push:*)", undefined],
    ["Bash(curl https://x.example)", undefined],
    ["Bash(cur*)", undefined],
    ["Bash(*)", undefined],
    ["Bash", undefined],
    ["Read(./secret)", undefined],
  ])("%s → %p", (rule, program) => {
    const [only] = compiled([["deny", rule]]);
    expect(bareProgram(only!)).toBe(program);
  });

  test("a rule with a when condition holds only sometimes: not a bare program", () => {
    const [only] = compiled([["deny", "Bash(curl:*)"]], { when: () => true });
    expect(bareProgram(only!)).toBeUndefined();
  });
});

describe("programMasks", () => {
  test("deny and ask rules, not allow; one per program, the deny rule named first", () => {
    const masks = programMasks(compiled([
      ["allow", "Bash(npm:*)"],
      ["ask", "Bash(curl:*)"],
      ["deny", "Bash(curl)"],
      ["ask", "Bash(git push:*)"],
      ["ask", "Bash(wget *)"],
    ]));
    expect(masks).toEqual([
      { program: "curl", why: "the deny rule Bash(curl) (user: /u/policy.json)" },
      { program: "wget", why: "the ask rule Bash(wget *) (user: /u/policy.json)" },
    ]);
  });

  test("the shipped default policy names no bare program (a plain toolrt sandbox reads no policy)", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolrt-program-rules-"));
    const { policy } = loadPolicy({
      cwd: dir,
      stateDir: join(dir, "state"),
      env: { HOME: join(dir, "home"), TOOLRT_MANAGED_POLICY: join(dir, "none") },
    });
    expect(policy.rules.some((r) => r.meta.source === "default")).toBe(true);
    expect(programMasks(policy.rules)).toEqual([]);
  });
});

describe("namedPrograms: what the approved line runs as its own commands", () => {
  test.each([
    ["curl x", ["curl"]],
    ["timeout 5 curl x", ["timeout", "curl"]],
    ["/usr/bin/curl x", ["curl"]],
    ["sh -c 'curl x'", ["curl"]],
    ["sudo rm x", ["sudo", "rm"]],
    ["sed -n '1e curl x' a.txt", ["sed"]],
    // tar's checkpoint exec= value is a shell command line the analysis reads: rules see `rm x`.
    ["tar -cf y.tar --checkpoint=1 --checkpoint-action=exec='rm x' a.txt", ["tar", "rm"]],
    ["make --eval='$(shell rm x)'", ["make"]],
  ])("%s names %p", async (line, names) => {
    expect([...namedPrograms((await analyzeBash(line)).commands)].sort()).toEqual([...names].sort());
  });

  test("masksForLine keeps every mask but the programs the line names", () => {
    const masks = [{ program: "curl", why: "a" }, { program: "rm", why: "b" }];
    expect(masksForLine(masks, new Set(["curl", "sed"]))).toEqual([{ program: "rm", why: "b" }]);
  });
});
