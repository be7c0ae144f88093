/**
 * The `tests` of a policy file, run against that file's rules alone (like execpolicy's examples):
 * `toolrt policy test` prints them, `validate` runs them too.
 */
import type { BashAnalysis } from "../bash/types.ts";
import { decide } from "./decide.ts";
import { type LoadedFile, Policy } from "./policy.ts";
import { buildRequest } from "./request.ts";
import type { Decision, Effect } from "./types.ts";

export interface TestOutcome {
  file: string;
  line: number;
  name: string;
  expect: Effect;
  /** The decision, or undefined when the case itself is malformed (see `error`). */
  decision?: Decision;
  error?: string;
  passed: boolean;
}

export interface TestOptions {
  cwd: string;
  home: string;
  /** The Bash analyzer; without it a command is judged as one sub-command with no checks. */
  analyzeBash?: (command: string) => BashAnalysis;
}

export function runPolicyTests(file: LoadedFile, options: TestOptions): TestOutcome[] {
  // Tests judge the rules as written: trust does not hide the file's own allow rules.
  const rules = file.rules.map((rule) => ({ ...rule, trusted: true }));
  const policy = new Policy(rules, { trusted: true, home: options.home, files: [file] });
  return file.tests.map((test, i) => {
    const line = file.testLines[i] ?? 0;
    const name = test.name ??
      `${test.tool} ${typeof test.input === "string" ? test.input : JSON.stringify(test.input)}`;
    const base = { file: file.file, line, name, expect: test.expect };
    if (typeof test.input === "string" && test.tool !== "Bash") {
      return { ...base, error: "input may be a string only for Bash; give an object", passed: false };
    }
    const input = typeof test.input === "string" ? { command: test.input } : test.input;
    const command = typeof input.command === "string" ? input.command : undefined;
    const request = buildRequest({
      tool: test.tool,
      input,
      cwd: options.cwd,
      home: options.home,
      mode: test.mode ?? "default",
      agent: test.agent ?? { depth: 0 },
      ...(test.tool === "Bash" && command !== undefined && options.analyzeBash
        ? { bash: options.analyzeBash(command) }
        : {}),
    }, test.readOnly === undefined ? {} : { readOnly: test.readOnly });
    const decision = decide(request, policy);
    return { ...base, decision, passed: decision.decision === test.expect };
  });
}

/** One line per failure and the closing `N passed, M failed` line. */
export function formatTestReport(outcomes: TestOutcome[]): string[] {
  const lines = outcomes.filter((o) => !o.passed).map((o) =>
    o.error
      ? `FAIL ${o.file}:${o.line}: ${o.name}: ${o.error}`
      : `FAIL ${o.file}:${o.line}: ${o.name}: expected ${o.expect}, got ${o.decision?.decision} (${o.decision?.reason})`
  );
  const passed = outcomes.filter((o) => o.passed).length;
  lines.push(`${passed} passed, ${outcomes.length - passed} failed`);
  return lines;
}
