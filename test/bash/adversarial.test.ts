/**
 * The adversarial corpus (fixtures/bash/adversarial.jsonl): every class of issue 4 §5 and the 23
 * checks, each in many disguises, run through the real analyzer and the real decision (`checkCall`
 * with the embedded default policy). `deny` lines are denied; `ask` lines are never allowed; and a
 * permissive prefix rule for the line's leading word (`Bash(git:*)`) still does not allow it, unless
 * the line says `"prefix": false` (the danger is the allowed command itself, not the shell around it).
 * Decided again as a call that runs in the sandbox with auto-allow on: every `deny` line is still
 * denied, and an ask or deny rule for the line's leading word is never beaten by the sandbox.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { analyzerDeps, checkCall, withBashParser } from "../../src/cli/check-call.ts";
import type { ExecutionPlace } from "../../src/exec/processes/sandbox-context.ts";
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

/** The decision for the call run in a sandbox that confines writes to the workspace, network off. */
const inSandbox: ExecutionPlace = {
  sandboxed: true,
  context: { writable: [box.cwd], allowNet: [], asksForHosts: false, denyRead: [] },
};
const sandboxedDecision = async (command: string, policy: Policy) =>
  await checkCall("Bash", { command }, policy, globals, analyzerDeps, () => inSandbox);

/** Leading `NAME=value` words: deny and ask rules match the command after them. */
const ASSIGNMENTS = /^(?:\s*[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|[^\s'"])*)+\s+/;

/** A rule of this effect for the command's leading word (after any assignments), as written. */
function wordPolicy(command: string, effect: "ask" | "deny"): Policy | undefined {
  const word = /^[\s({!]*([A-Za-z0-9_./][A-Za-z0-9_.+/-]*)/.exec(command.replace(ASSIGNMENTS, ""))?.[1];
  if (word === undefined) return undefined;
  const key = `${effect} ${word}`;
  if (!policies.has(key)) {
    policies.set(
      key,
      loadPolicy({ cwd: box.cwd, stateDir: box.stateDir, env, cliRules: { [effect]: [`Bash(${word}:*)`] } })
        .policy,
    );
  }
  return policies.get(key);
}

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

describe("adversarial corpus in the sandbox, auto-allow on", () => {
  for (const [name, members] of byClass) {
    test(`${name} (${members.length})`, async () => {
      const wrong: string[] = [];
      for (const line of members) {
        const got = await sandboxedDecision(line.command, defaults);
        if (line.expect === "deny" && got.decision !== "deny") {
          wrong.push(`${JSON.stringify(line.command)}: ${got.decision} in the sandbox, expected deny`);
        }
        if (
          got.decision === "allow" && !got.sandbox?.autoAllowed &&
          got.matched.some((r) => r.effect !== "allow")
        ) {
          wrong.push(
            `${JSON.stringify(line.command)}: allowed although a ${got.matched[0]!.effect} rule matched`,
          );
        }
        for (const effect of ["ask", "deny"] as const) {
          const policy = wordPolicy(line.command, effect);
          const ruled = policy && await sandboxedDecision(line.command, policy);
          if (ruled?.decision === "allow") {
            wrong.push(
              `${
                JSON.stringify(line.command)
              }: the sandbox allowed it past a ${effect} rule for its leading word`,
            );
          }
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});
