import { afterAll, describe, expect, test } from "bun:test";
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ScanLimitError, scanWritableRoots } from "../../src/sandbox/scan.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-scan-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ws = join(dir, "ws");
const outside = join(dir, "outside");
const secret = join(dir, "home", ".ssh");
for (
  const d of [ws, join(ws, "sub dir"), join(ws, "vendor", "lib", ".git"), join(ws, ".git"), outside, secret]
) {
  mkdirSync(d, { recursive: true });
}
writeFileSync(join(outside, "victim"), "v");
linkSync(join(outside, "victim"), join(ws, "sub dir", "prelinked"));
writeFileSync(join(ws, "a"), "a");
linkSync(join(ws, "a"), join(ws, "a-twin")); // both links inside: stays writable
writeFileSync(join(secret, "id_rsa"), "k");
linkSync(join(secret, "id_rsa"), join(ws, "key"));
writeFileSync(join(ws, "plain"), "p");

describe("scanWritableRoots", () => {
  const scan = scanWritableRoots([ws], [secret]);
  test("finds files hard-linked to something outside the roots", () => {
    expect(scan.linkedOutside).toEqual([join(ws, "key"), join(ws, "sub dir", "prelinked")]);
  });
  test("finds files that are the same inode as a read-denied file", () => {
    expect(scan.aliasesOfDenied).toEqual([join(ws, "key")]);
  });
  test("finds nested repositories but not the root's own .git", () => {
    expect(scan.nestedGitDirs).toEqual([join(ws, "vendor", "lib", ".git")]);
  });
  test("two roots holding both links: nothing is linked outside", () => {
    expect(scanWritableRoots([ws, outside], []).linkedOutside).toEqual([join(ws, "key")]);
  });
  test("stops with an error beyond the entry limit instead of scanning partially", () => {
    expect(() => scanWritableRoots([ws], [], 3)).toThrow(ScanLimitError);
  });
});
