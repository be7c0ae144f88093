/** Checks the hash chain of an audit log and says where it breaks. */
import { existsSync, readFileSync } from "node:fs";
import { type AuditRecord, GENESIS_HASH, recordHash } from "./log.ts";

export interface VerifyResult {
  ok: boolean;
  records: number;
  /** The hash of the last record: keep it elsewhere to detect lines removed from the end. */
  lastHash: string;
  problems: string[];
}

export function verifyAuditLog(path: string): VerifyResult {
  if (!existsSync(path)) return { ok: true, records: 0, lastHash: GENESIS_HASH, problems: [] };
  const lines = readFileSync(path, "utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  const problems: string[] = [];
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  lines.forEach((line, index) => {
    const lineNo = index + 1;
    let record: AuditRecord;
    try {
      record = JSON.parse(line);
    } catch {
      problems.push(`line ${lineNo}: not valid JSON`);
      return;
    }
    const { hash, ...rest } = record;
    if (record.seq !== expectedSeq) {
      problems.push(
        `line ${lineNo}: sequence ${record.seq} where ${expectedSeq} was expected (lines removed or reordered)`,
      );
    }
    if (record.prev !== prevHash) {
      problems.push(
        `line ${lineNo}: does not follow the line before it (a line was removed, inserted or edited)`,
      );
    }
    if (recordHash(rest) !== hash) problems.push(`line ${lineNo}: content does not match its hash (edited)`);
    prevHash = hash;
    expectedSeq = (typeof record.seq === "number" ? record.seq : expectedSeq) + 1;
  });
  return { ok: problems.length === 0, records: lines.length, lastHash: prevHash, problems };
}
