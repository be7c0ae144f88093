import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { auditableInput, AuditLog } from "../../src/audit/log.ts";
import { redact, redactString } from "../../src/audit/redact.ts";
import { verifyAuditLog } from "../../src/audit/verify.ts";
import { tempDir } from "../helpers/session-context.ts";

function logWith(n: number): AuditLog {
  const log = new AuditLog(join(tempDir(), "audit.jsonl"));
  for (let i = 0; i < n; i++) log.append({ kind: "call", tool: `T${i}`, decision: "allow" });
  return log;
}

const lines = (log: AuditLog) => readFileSync(log.path, "utf8").trimEnd().split("\n");
const rewrite = (log: AuditLog, ls: string[]) => writeFileSync(log.path, `${ls.join("\n")}\n`);

describe("hash chain", () => {
  test("an untouched log verifies", () => {
    const log = logWith(5);
    const result = verifyAuditLog(log.path);
    expect(result).toMatchObject({ ok: true, records: 5, problems: [] });
    expect(result.lastHash).toBe(log.read().at(-1)!.hash);
  });
  test("a removed line is found", () => {
    const log = logWith(5);
    const ls = lines(log);
    ls.splice(2, 1);
    rewrite(log, ls);
    const result = verifyAuditLog(log.path);
    expect(result.ok).toBe(false);
    expect(result.problems.join("\n")).toContain("line 3");
  });
  test("an edited line is found, even with a recomputed-looking field", () => {
    const log = logWith(3);
    const ls = lines(log);
    ls[1] = ls[1]!.replace('"decision":"allow"', '"decision":"deny"');
    rewrite(log, ls);
    const result = verifyAuditLog(log.path);
    expect(result.ok).toBe(false);
    expect(result.problems).toContain("line 2: content does not match its hash (edited)");
  });
  test("swapped lines are found", () => {
    const log = logWith(4);
    const ls = lines(log);
    [ls[1], ls[2]] = [ls[2]!, ls[1]!];
    rewrite(log, ls);
    expect(verifyAuditLog(log.path).ok).toBe(false);
  });
  test("a line that is not JSON is found", () => {
    const log = logWith(2);
    rewrite(log, [...lines(log), "garbage"]);
    expect(verifyAuditLog(log.path).problems).toContain("line 3: not valid JSON");
  });
  test("appends from several writers keep one unbroken chain", async () => {
    const path = join(tempDir(), "audit.jsonl");
    const writer = (id: number) =>
      Bun.spawn([
        process.execPath,
        "-e",
        `
        const { AuditLog } = await import(${JSON.stringify(join(import.meta.dir, "../../src/audit/log.ts"))});
        const log = new AuditLog(${JSON.stringify(path)});
        for (let i = 0; i < 25; i++) log.append({ kind: "call", tool: "W${id}" });
      `,
      ]).exited;
    await Promise.all([writer(1), writer(2), writer(3)]);
    const result = verifyAuditLog(path);
    expect(result.problems).toEqual([]);
    expect(result.records).toBe(75);
  });
});

describe("redaction", () => {
  const cases: [string, string][] = [
    ["curl -H 'Authorization: Bearer abcdefghijklmnop123' x", "Bearer [REDACTED]"],
    ["git clone https://bob:hunter2@example.com/r.git", "https://bob:[REDACTED]@example.com"],
    ["export GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ", "GITHUB_TOKEN=[REDACTED]"],
    ["aws AKIAABCDEFGHIJKLMNOP", "[REDACTED:aws-key-id]"],
    ["mysql --password=s3cret -u root", "--password=[REDACTED]"],
    ["key sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "[REDACTED:api-key]"],
    ["-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----", "[REDACTED:private-key]"],
  ];
  for (const [input, expected] of cases) {
    test(`redacts ${input.slice(0, 30)}`, () => {
      expect(redactString(input)).toContain(expected);
    });
  }
  test("secret-named keys are replaced whole, other values kept", () => {
    expect(redact({ command: "ls", api_key: "abc", nested: { password: 1, note: "fine" } })).toEqual({
      command: "ls",
      api_key: "[REDACTED]",
      nested: { password: "[REDACTED]", note: "fine" },
    });
  });
  test("ordinary commands are untouched", () => {
    expect(redactString("git commit -m 'fix token parsing'")).toBe("git commit -m 'fix token parsing'");
  });
  test("huge inputs are cut", () => {
    expect(JSON.stringify(auditableInput({ content: "x".repeat(100_000) })).length).toBeLessThan(5_000);
  });
});
