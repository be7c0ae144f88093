/**
 * The adversarial corpus (fixtures/bash/adversarial.jsonl): every class of issue 4 §5 and the 23
 * checks, each in many disguises, run through the real analyzer and the real decision (`checkCall`
 * with the embedded default policy). `deny` lines are denied; `ask` lines are never allowed; and a
 * permissive prefix rule for the line's leading word (`Bash(git:*)`) still does not allow it, unless
 * the line says `"prefix": false` (the danger is the allowed command itself, not the shell around it).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { analyzerDeps, checkCall, withBashParser } from "../../src/cli/check-call.ts";
import { globalsFrom } from "../../src/cli/options.ts";
import { loadPolicy } from "../../src/policy/load.ts";
import type { Policy } from "../../src/policy/policy.ts";
import { sandbox } from "../policy/helpers.ts";

interface Line {
  command: string;
  class: string;
  expect: "deny" | "ask";
  /** False when a prefix rule for the leading word rightly allows it (`Bash(systemctl:*)`). */
  prefix?: boolean;
}

const CORPUS = join(import.meta.dir, "../../fixtures/bash/adversarial.jsonl");
const lines: Line[] = readFileSync(CORPUS, "utf8").split("\n").filter((l) => l !== "").map((l) =>
  JSON.parse(l)
);

const box = sandbox();
// Policy files come only from the sandbox (XDG config, managed dir); `~` is the home that requests
// resolve `~` against (os.homedir()), so Read(~/.ssh/**) rules meet the paths the analyzer reports.
const env = { ...box.env, HOME: homedir() };
const globals = { ...globalsFrom({ cwd: box.cwd, stateDir: box.stateDir }), color: false };
const load = (allow: string[] = []): Policy =>
  loadPolicy({ cwd: box.cwd, stateDir: box.stateDir, env, cliRules: { allow } }).policy;
const policies = new Map<string, Policy>();

/** The permissive prefix rule for the command's leading word, as written. */
function prefixPolicy(command: string): Policy | undefined {
  const word = /^[\s({!]*([A-Za-z0-9_./][A-Za-z0-9_.+/-]*)/.exec(command)?.[1];
  if (word === undefined) return undefined;
  if (!policies.has(word)) policies.set(word, load([`Bash(${word}:*)`]));
  return policies.get(word);
}

const decision = async (command: string, policy: Policy) =>
  (await checkCall("Bash", { command }, policy, globals, analyzerDeps)).decision;

const byClass = new Map<string, Line[]>();
for (const line of lines) byClass.set(line.class, [...(byClass.get(line.class) ?? []), line]);

let defaults: Policy;
beforeAll(async () => {
  await withBashParser();
  defaults = load();
});

test("the corpus covers every class in many disguises", () => {
  expect(lines.length).toBeGreaterThanOrEqual(400);
  expect(byClass.size).toBeGreaterThanOrEqual(40);
  expect(new Set(lines.map((l) => l.command)).size).toBe(lines.length);
});

describe("adversarial corpus under the default policy and a permissive prefix rule", () => {
  for (const [name, members] of byClass) {
    test(`${name} (${members.length})`, async () => {
      const wrong: string[] = [];
      for (const line of members) {
        const got = await decision(line.command, defaults);
        if (line.expect === "deny" ? got !== "deny" : got === "allow") {
          wrong.push(`${JSON.stringify(line.command)}: ${got}, expected ${line.expect}`);
        }
        const permissive = line.prefix === false ? undefined : prefixPolicy(line.command);
        if (permissive && (await decision(line.command, permissive)) === "allow") {
          wrong.push(`${JSON.stringify(line.command)}: allowed by a prefix rule for its leading word`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});

test("at least 85 % of the catastrophic lines are denied outright", async () => {
  const catastrophic = lines.filter((l) => l.expect === "deny");
  let denied = 0;
  for (const line of catastrophic) if ((await decision(line.command, defaults)) === "deny") denied++;
  expect(denied / catastrophic.length).toBeGreaterThanOrEqual(0.85);
});
