/**
 * The work-loss table (src/bash/work-loss.ts), one test per entry: every `found` example is found
 * as that entry and asked about by the shipped default policy even under `--allow 'Bash(git:*)'`
 * (the rule with the entry's id decides); every `spared` example is not found, and the broad allow
 * still allows it. Disabling the rule by id lets the broad allow decide again.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { WORK_LOSS } from "../../src/bash/work-loss.ts";
import { analyzerDeps, checkCall, withBashParser } from "../../src/cli/check-call.ts";
import { globalsFrom } from "../../src/cli/options.ts";
import { loadPolicy } from "../../src/policy/load.ts";
import type { Policy } from "../../src/policy/policy.ts";
import defaultPolicy from "../../policy/default.json" with { type: "json" };
import { sandbox } from "../policy/helpers.ts";

const box = sandbox();
let broad: Policy;
beforeAll(async () => {
  await withBashParser();
  broad =
    loadPolicy({ cwd: box.cwd, stateDir: box.stateDir, env: box.env, cliRules: { allow: ["Bash(git:*)"] } })
      .policy;
});

const decide = async (command: string, policy: Policy) => {
  const globals = { ...globalsFrom({ cwd: box.cwd, stateDir: box.stateDir }), color: false };
  return await checkCall("Bash", { command }, policy, globals, analyzerDeps);
};

test("every entry has an id, a name, examples both ways, and a default ask rule of that id and reason", () => {
  const ids = WORK_LOSS.map((e) => e.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const entry of WORK_LOSS) {
    expect(entry.id, entry.id).toMatch(/^git-[a-z-]+$/);
    expect(entry.examples.found.length, entry.id).toBeGreaterThan(0);
    expect(entry.examples.spared.length, entry.id).toBeGreaterThan(0);
    const rule = defaultPolicy.rules.find((r) => r.id === entry.id);
    expect(rule, entry.id).toMatchObject({
      effect: "ask",
      tool: "Bash",
      when: { in: [entry.id, { var: "command.workLoss" }] },
      reason: entry.name,
    });
  }
  const guards = defaultPolicy.rules.filter((r) => r.id.startsWith("git-")).map((r) => r.id);
  expect(guards.sort()).toEqual([...ids].sort());
});

describe("work-loss table entries", () => {
  for (const entry of WORK_LOSS) {
    test(`${entry.id}: ${entry.name}`, async () => {
      const wrong: string[] = [];
      for (const command of entry.examples.found) {
        const a = await analyzeBash(command);
        if (!a.workLoss.some((w) => w.id === entry.id)) {
          wrong.push(`${JSON.stringify(command)} not found as ${entry.id} (${a.workLoss.map((w) => w.id)})`);
          continue;
        }
        const decision = await decide(command, broad);
        if (decision.decision !== "ask" || decision.matched[0]?.id !== entry.id || !decision.hardAsk) {
          wrong.push(
            `${JSON.stringify(command)} under Bash(git:*): ${decision.decision} (${decision.reason})`,
          );
        }
      }
      for (const command of entry.examples.spared) {
        const a = await analyzeBash(command);
        if (a.workLoss.some((w) => w.id === entry.id)) {
          wrong.push(`${JSON.stringify(command)} found as ${entry.id}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});

test("the negatives the guard must leave to a broad allow are allowed by Bash(git:*)", async () => {
  const allowed = [
    "git reset --soft HEAD~1",
    "git clean -n",
    "git push --force-with-lease origin main",
    "git checkout -b new",
    "git restore --staged f",
    "git stash list",
    "git branch -d topic",
  ];
  for (const command of allowed) {
    const decision = await decide(command, broad);
    expect(`${command}: ${decision.decision}`).toBe(`${command}: allow`);
  }
});

test("a guard holds inside compound commands and substitutions, each part judged on its own", async () => {
  for (
    const command of ["git status && git reset --hard", "echo $(git stash clear)", "git add . ; git push -f"]
  ) {
    const decision = await decide(command, broad);
    expect(`${command}: ${decision.decision}`).toBe(`${command}: ask`);
  }
});
