/**
 * `toolrt audit export --otlp`: the local audit log sent as OTLP log records, so a machine that was
 * offline (or exported nothing) catches up. Resumable: the last record delivered (its sequence
 * number and hash) is kept in the state dir per collector, and the next run starts after it.
 * Idempotent by record hash: every record carries `toolrt.audit.hash`, so a backend can drop what
 * it already has, and a log that no longer holds the remembered record (replaced, rotated, cut) is
 * sent again from its start rather than skipped.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AuditRecord } from "../audit/log.ts";
import { writeJsonAtomically } from "../policy/json-file.ts";
import type { Signal, TelemetryConfig } from "./config.ts";
import type { LogRecord } from "./otlp/types.ts";
import { keyValues } from "./otlp/values.ts";
import { logRecordOf } from "./records.ts";
import { baseResource, SCOPE } from "./resource.ts";
import { nowNanos } from "./trace.ts";
import { encodeRequest, type Payload, send, type SendResult } from "./transport.ts";

export interface ExportPosition {
  seq: number;
  hash: string;
}

export interface AuditExportResult {
  sent: number;
  /** Records already delivered by an earlier run. */
  skipped: number;
  /** The remembered record was not in the log: everything was sent again. */
  restarted: boolean;
  /** Why the export stopped early; what was sent before it is remembered. */
  failure?: string;
  position?: ExportPosition;
}

export interface AuditExportOptions {
  config: TelemetryConfig;
  env: Record<string, string | undefined>;
  records: AuditRecord[];
  stateDir: string;
  /** Default: HTTP to the configured collector. */
  deliver?: (payload: Payload) => Promise<SendResult>;
}

function positionFile(stateDir: string, key: string): string {
  return join(stateDir, `telemetry-export-${key}.json`);
}

export function readPosition(stateDir: string, key: string): ExportPosition | undefined {
  const file = positionFile(stateDir, key);
  if (!existsSync(file)) return undefined;
  try {
    const value = JSON.parse(readFileSync(file, "utf8"));
    return typeof value?.seq === "number" && typeof value?.hash === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

export async function exportAuditLog(options: AuditExportOptions): Promise<AuditExportResult> {
  const { config, records, stateDir } = options;
  const target = config.targets.logs;
  if (!target) {
    return {
      sent: 0,
      skipped: 0,
      restarted: false,
      failure: "logs are not exported (OTEL_LOGS_EXPORTER=none)",
    };
  }
  const deliver = options.deliver ??
    ((payload: Payload) => send(target, payload, new AbortController().signal));
  const protocol = target.kind === "otlp" ? target.protocol : "http/json";
  const remembered = readPosition(stateDir, config.key);
  const at = remembered
    ? records.findIndex((r) => r.seq === remembered.seq && r.hash === remembered.hash)
    : -1;
  const restarted = remembered !== undefined && at === -1;
  const pending = records.slice(at + 1);
  const resource = { attributes: keyValues(baseResource(config, options.env)) };
  let sent = 0;
  let position = at >= 0 ? remembered : undefined;
  for (let start = 0; start < pending.length; start += config.logs.maxExportBatchSize) {
    const batch = pending.slice(start, start + config.logs.maxExportBatchSize);
    const now = nowNanos();
    const logRecords: LogRecord[] = batch.map((record) =>
      logRecordOf(record, { includeInput: config.includeInput, now })
    );
    const payload = encodeRequest("logs" satisfies Signal, protocol, {
      resourceLogs: [{ resource, scopeLogs: [{ scope: SCOPE, logRecords }] }],
    });
    const result = await deliver(payload);
    if (!result.ok) {
      return { sent, skipped: at + 1, restarted, failure: result.why, ...(position ? { position } : {}) };
    }
    const last = batch.at(-1)!;
    position = { seq: last.seq, hash: last.hash };
    writeJsonAtomically(positionFile(stateDir, config.key), position);
    sent += batch.length;
  }
  return { sent, skipped: at + 1, restarted, ...(position ? { position } : {}) };
}
