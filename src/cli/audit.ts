/** `toolrt audit [--json] [--tail N]` and `toolrt audit verify`: the decision and call log. */
import type { Command } from "commander";
import { AuditLog, type AuditRecord } from "../audit/log.ts";
import { verifyAuditLog } from "../audit/verify.ts";
import { UsageError } from "./errors.ts";
import { globalsOf } from "./globals.ts";

export function register(program: Command): void {
  const audit = program
    .command("audit")
    .description("show the append-only decision and call log")
    .option("--json", "one JSON object per line, as stored")
    .option("--tail <n>", "only the last N records")
    .action((opts: { json?: boolean; tail?: string }, command: Command) => {
      const log = AuditLog.inStateDir(globalsOf(command).stateDir);
      const tail = opts.tail === undefined ? undefined : Number.parseInt(opts.tail, 10);
      if (tail !== undefined && !(Number.isInteger(tail) && tail >= 0)) {
        throw new UsageError(`--tail takes a whole number, got ${JSON.stringify(opts.tail)}`);
      }
      const all = log.read();
      const records = tail === undefined ? all : all.slice(all.length - tail);
      for (const record of records) console.log(opts.json ? JSON.stringify(record) : humanLine(record));
    });

  audit
    .command("verify")
    .description("check the hash chain: finds removed, reordered or edited lines")
    .option("--json", "machine-readable output")
    .action((_opts: { json?: boolean }, command: Command) => {
      const log = AuditLog.inStateDir(globalsOf(command).stateDir);
      const result = verifyAuditLog(log.path);
      // `audit` has a --json of its own, which commander also accepts after `verify`.
      if (command.optsWithGlobals().json) console.log(JSON.stringify({ path: log.path, ...result }));
      else {
        for (const problem of result.problems) console.log(problem);
        console.log(
          result.ok
            ? `ok: ${result.records} records, chain intact; last hash ${result.lastHash}`
            : `broken: ${result.problems.length} problem(s) in ${result.records} records (${log.path})`,
        );
      }
      process.exitCode = result.ok ? 0 : 1;
    });
}

function humanLine(r: AuditRecord): string {
  const what = [r.kind, r.tool, r.decision, r.outcome].filter(Boolean).join(" ");
  const why = [r.reason, r.rule && `rule ${r.rule}`, r.source && `from ${r.source}`, r.detail].filter(Boolean)
    .join("; ");
  return `${r.ts} #${r.seq} ${what}${r.durationMs !== undefined ? ` ${r.durationMs}ms` : ""}${
    why ? ` — ${why}` : ""
  }`;
}
