import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OutputLog } from "../../../src/exec/processes/output-log.ts";

const dirs: string[] = [];
function logPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolrt-log-"));
  dirs.push(dir);
  return join(dir, "nested", "out.log");
}
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const bytes = (text: string) => new TextEncoder().encode(text);

describe("OutputLog", () => {
  test("no file until the first byte; then every byte is on disk", () => {
    const log = new OutputLog(logPath());
    expect(log.exists).toBe(false);
    expect(existsSync(log.path)).toBe(false);
    log.append(bytes("hello "));
    log.append(bytes("world"));
    log.close();
    expect(readFileSync(log.path, "utf8")).toBe("hello world");
    expect(log.bytes).toBe(11);
  });

  test("ensureFile creates an empty file; discard removes it", () => {
    const log = new OutputLog(logPath());
    log.ensureFile();
    expect(readFileSync(log.path, "utf8")).toBe("");
    log.discard();
    expect(existsSync(log.path)).toBe(false);
  });

  test("excerpts a byte range: whole when short, head and tail when long", () => {
    const log = new OutputLog(logPath());
    log.append(bytes("0123456789abcdef"));
    expect(log.excerpt(2, 6, 4, 4)).toEqual({ head: "2345", tail: "", omittedBytes: 0 });
    expect(log.excerpt(0, 16, 3, 2)).toEqual({ head: "012", tail: "ef", omittedBytes: 11 });
    expect(log.excerpt(16, 16, 3, 2)).toEqual({ head: "", tail: "", omittedBytes: 0 });
  });

  test("an excerpt of a log that never got a byte is empty, not an error", () => {
    expect(new OutputLog(logPath()).excerpt(0, 0, 10, 10)).toEqual({ head: "", tail: "", omittedBytes: 0 });
  });
});
