/** `toolrt audit [--json] [--tail N]` and `toolrt audit verify`: the decision and call log. */
import type { Command } from "commander";
import { AuditLog, type AuditRecord } from "../audit/log.ts";
import { verifyAuditLog } from "../audit/verify.ts";
import { exportConfig } from "../telemetry/index.ts";
import { ConfigError, UsageError } from "./errors.ts";
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
  audit
    .command("export")
    .description(
      "send the audit log to the OpenTelemetry collector (OTLP logs), from where the last run stopped",
    )
    .requiredOption("--otlp", "as OTLP log records, to the collector the OTEL_* variables and policy name")
    .action(async (_opts: { otlp: boolean }, command: Command) => {
      const globals = globalsOf(command);
      const { config, warnings } = exportConfig({ cwd: globals.cwd, flagFiles: globals.policy });
      for (const warning of warnings) process.stderr.write(`toolrt: ${warning}\n`);
      if (!config) {
        throw new ConfigError("telemetry is turned off by the managed policy; nothing is exported");
      }
      const log = AuditLog.inStateDir(globals.stateDir);
      const { exportAuditLog } = await import("../telemetry/audit-export.ts");
      const result = await exportAuditLog({
        config,
        env: process.env,
        records: log.read(),
        stateDir: globals.stateDir,
      });
      const where = config.targets.logs?.kind === "otlp" ? config.targets.logs.url : "stderr";
      if (result.restarted) {
        console.log(
          "the last exported record is no longer in the log: sending it all again (records carry their hash)",
        );
      }
      const upTo = result.position ? `; the next run starts after record ${result.position.seq}` : "";
      const pending = result.sent > 0 || result.failure;
      console.log(
        pending
          ? `exported ${result.sent} records to ${where}${upTo}`
          : `nothing new to export (${result.skipped} records already sent)`,
      );
      if (result.failure) {
        process.stderr.write(`toolrt: export stopped: ${result.failure}; run it again to resume\n`);
        process.exitCode = 1;
      }
    });
}

function humanLine(r: AuditRecord): string {
  const what = [r.kind, r.tool, r.decision, r.outcome].filter(Boolean).join(" ");
  const why = [r.reason, r.rule && `rule ${r.rule}`, r.source && `from ${r.source}`, r.file, r.detail].filter(
    Boolean,
  )
    .join("; ");
  return `${r.ts} #${r.seq} ${what}${r.durationMs !== undefined ? ` ${r.durationMs}ms` : ""}${
    why ? ` — ${why}` : ""
  }`;
}
