/**
 * The catastrophe table (src/bash/catastrophes.ts), one test per entry: every `denied` example is
 * found as that entry and denied by the real decision under the default policy, in default mode
 * and in bypassPermissions even with `Bash` allowed; no `spared` example is found as that entry.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { CATASTROPHES } from "../../src/bash/catastrophes.ts";
import { analyzerDeps, checkCall, withBashParser } from "../../src/cli/check-call.ts";
import { globalsFrom } from "../../src/cli/options.ts";
import { loadPolicy } from "../../src/policy/load.ts";
import type { Policy } from "../../src/policy/policy.ts";
import { sandbox } from "../policy/helpers.ts";

const box = sandbox();
let defaults: Policy;
let lenient: Policy;
beforeAll(async () => {
  await withBashParser();
  const load = (allow: string[]) =>
    loadPolicy({ cwd: box.cwd, stateDir: box.stateDir, env: box.env, cliRules: { allow } }).policy;
  defaults = load([]);
  lenient = load(["Bash"]);
});

const decide = async (command: string, policy: Policy, mode: "default" | "bypassPermissions") => {
  const globals = { ...globalsFrom({ cwd: box.cwd, stateDir: box.stateDir, mode }), color: false };
  return await checkCall("Bash", { command }, policy, globals, analyzerDeps);
};

test("every entry has an id, a name and examples both ways, and ids are unique", () => {
  const ids = CATASTROPHES.map((e) => e.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const entry of CATASTROPHES) {
    expect(entry.id, entry.id).toMatch(/^[a-z][a-z-]+$/);
    expect(entry.name.length, entry.id).toBeGreaterThan(5);
    expect(entry.examples.denied.length, entry.id).toBeGreaterThan(0);
    expect(entry.examples.spared.length, entry.id).toBeGreaterThan(0);
  }
});

describe("catastrophe table entries", () => {
  for (const entry of CATASTROPHES) {
    test(`${entry.id}: ${entry.name}`, async () => {
      const wrong: string[] = [];
      for (const command of entry.examples.denied) {
        const a = await analyzeBash(command);
        if (!a.catastrophic.some((c) => c.id === entry.id)) {
          wrong.push(
            `${JSON.stringify(command)} not found as ${entry.id} (${a.catastrophic.map((c) => c.id)})`,
          );
          continue;
        }
        for (const [policy, mode] of [[defaults, "default"], [lenient, "bypassPermissions"]] as const) {
          const decision = await decide(command, policy, mode);
          if (decision.decision !== "deny") {
            wrong.push(`${JSON.stringify(command)}: ${decision.decision} in ${mode}`);
          } else if (!decision.reason.includes(entry.id) && !decision.reason.includes("catastrophic-")) {
            wrong.push(
              `${JSON.stringify(command)}: the denial does not name ${entry.id}: ${decision.reason}`,
            );
          }
        }
      }
      for (const command of entry.examples.spared) {
        const a = await analyzeBash(command);
        if (a.catastrophic.some((c) => c.id === entry.id)) {
          wrong.push(`${JSON.stringify(command)} found as ${entry.id}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});
