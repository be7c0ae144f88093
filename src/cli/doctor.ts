/**
 * `toolrt doctor [--json]`: checks what this machine gives toolrt (bubblewrap, user namespaces,
 * seccomp, cgroups, ripgrep, strace, the state dir, the policy files) and prints the fix for each
 * failing item. Exit 0 when every required check passes, 1 otherwise.
 */
import { styleText } from "node:util";
import type { Command } from "commander";
import { type CheckResult, doctorExitCode, runDoctor } from "../doctor/checks.ts";
import { globalsOf } from "./globals.ts";
import { loadOptionsOf } from "./options.ts";

const MARK: Record<CheckResult["status"], string> = { ok: "ok  ", warn: "warn", fail: "FAIL", skip: "skip" };
const COLOR = { ok: "green", warn: "yellow", fail: "red", skip: "gray" } as const;

export function register(program: Command): void {
  program
    .command("doctor")
    .description("check bubblewrap, namespaces, seccomp, cgroups, ripgrep, the state dir and policy files")
    .option("--json", "one JSON object: ok, and every check with id, name, required, status, detail, fix")
    .addHelpText(
      "after",
      "\nExit status: 0 when every required check passes, 1 otherwise (warnings do not count).",
    )
    .action(async (opts: { json?: boolean }, command: Command) => {
      const globals = globalsOf(command);
      const results = await runDoctor({ load: loadOptionsOf(globals) });
      const code = doctorExitCode(results);
      if (opts.json) {
        console.log(JSON.stringify({ ok: code === 0, checks: results }, null, 2));
      } else {
        for (const line of humanLines(results, globals.color)) console.log(line);
      }
      process.exitCode = code;
    });
}

function humanLines(results: CheckResult[], color: boolean): string[] {
  const lines: string[] = [];
  for (const r of results) {
    const mark = color ? styleText(COLOR[r.status], MARK[r.status]) : MARK[r.status];
    const optional = r.required || r.status === "ok" ? "" : " (optional)";
    lines.push(`${mark} ${r.name}${optional}: ${r.detail}`);
    for (const fix of r.status === "ok" ? [] : r.fix) lines.push(`       fix: ${fix}`);
  }
  const failed = results.filter((r) => r.required && r.status !== "ok" && r.status !== "warn").length;
  lines.push(failed === 0 ? "all required checks passed" : `${failed} required check(s) did not pass`);
  return lines;
}
