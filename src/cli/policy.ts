/**
 * `toolrt policy validate [FILE...] | test [FILE...] | schema`. Without FILEs, validate and test
 * cover every policy file the workspace loads (managed, user, project, local, --policy, defaults).
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { FileProblem } from "../policy/json-position.ts";
import { loadPolicy } from "../policy/load.ts";
import { compilePolicyText } from "../policy/policy-file.ts";
import type { LoadedFile } from "../policy/policy.ts";
import { formatTestReport, runPolicyTests, type TestOutcome } from "../policy/policy-tests.ts";
import { policyJsonSchema } from "../policy/schema.ts";
import { analyzerDeps, type CheckDeps, withBashParser } from "./check-call.ts";
import { ConfigError } from "./errors.ts";
import { globalsOf } from "./globals.ts";
import { type GlobalOptions, loadOptionsOf } from "./options.ts";

interface Checked {
  files: LoadedFile[];
  errors: FileProblem[];
  warnings: string[];
}

export function register(program: Command, deps: CheckDeps = analyzerDeps): void {
  const policy = program.command("policy").description("check, test and describe policy files");
  policy
    .command("validate")
    .description("report every problem with file:line:column, then run the files' tests")
    .argument("[files...]", "policy files (default: every file the workspace loads)")
    .action(async (files: string[], _opts: unknown, command: Command) => {
      await withBashParser();
      const globals = globalsOf(command);
      const checked = checkFiles(files, globals);
      for (const warning of checked.warnings) console.error(`warning: ${warning}`);
      if (checked.errors.length > 0) throw new ConfigError(checked.errors.map((e) => e.message).join("\n"));
      const outcomes = runAll(checked.files, globals, deps);
      const failed = outcomes.filter((o) => !o.passed);
      for (const line of formatTestReport(outcomes).slice(0, -1)) console.log(line);
      const rules = checked.files.reduce((n, f) => n + f.rules.length, 0);
      console.log(
        `${checked.files.length} file(s) valid, ${rules} rule(s); tests: ${
          formatTestReport(outcomes).at(-1)
        }`,
      );
      if (failed.length > 0) process.exitCode = 1;
    });
  policy
    .command("test")
    .description("run the tests of policy files; the last line is `N passed, M failed`")
    .argument("[files...]", "policy files (default: every file the workspace loads)")
    .action(async (files: string[], _opts: unknown, command: Command) => {
      await withBashParser();
      const globals = globalsOf(command);
      const checked = checkFiles(files, globals);
      if (checked.errors.length > 0) throw new ConfigError(checked.errors.map((e) => e.message).join("\n"));
      const outcomes = runAll(checked.files, globals, deps);
      for (const line of formatTestReport(outcomes)) console.log(line);
      if (outcomes.some((o) => !o.passed)) process.exitCode = 1;
    });
  policy
    .command("schema")
    .description("print the JSON Schema of policy files")
    .action(() => console.log(JSON.stringify(policyJsonSchema(), null, 2)));
}

/** The named files each on their own (as --policy files), or every file the workspace loads. */
function checkFiles(files: string[], globals: GlobalOptions): Checked {
  if (files.length === 0) {
    const loaded = loadPolicy(loadOptionsOf(globals));
    return {
      files: loaded.policy.state.files,
      errors: [...loaded.managedErrors, ...loaded.errors],
      warnings: loaded.warnings,
    };
  }
  const checked: Checked = { files: [], errors: [], warnings: [] };
  for (const name of files) {
    const file = resolve(globals.cwd, name);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw new ConfigError(`${file}: cannot read the policy: ${(error as NodeJS.ErrnoException).code}`);
    }
    // Judged as the workspace's project policy: `/path` rules start at the workspace root.
    const anchors = { cwd: globals.cwd, home: process.env.HOME || homedir(), sourceBase: globals.cwd };
    const compiled = compilePolicyText(file, text, { source: "flag", anchors, trusted: true });
    checked.errors.push(...compiled.errors);
    checked.warnings.push(...compiled.warnings.map((w) => w.message));
    if (compiled.loaded) checked.files.push(compiled.loaded);
  }
  return checked;
}

function runAll(files: LoadedFile[], globals: GlobalOptions, deps: CheckDeps): TestOutcome[] {
  const home = process.env.HOME || homedir();
  const options = { cwd: globals.cwd, home, ...(deps.analyzeBash ? { analyzeBash: deps.analyzeBash } : {}) };
  return files.flatMap((file) => runPolicyTests(file, options));
}
