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
  test("directories whose every file is linked outside are reported, topmost only", () => {
    expect(scan.linkedOutsideDirs).toEqual([join(ws, "sub dir")]); // its one file is linked outside
    const pkg = join(dir, "pnpm-ws", "node_modules", "pkg");
    mkdirSync(join(pkg, "lib"), { recursive: true });
    mkdirSync(join(dir, "pnpm-ws", "node_modules", "empty"));
    for (const name of ["index.js", "lib/util.js"]) {
      writeFileSync(join(outside, name.replace("/", "-")), "x");
      linkSync(join(outside, name.replace("/", "-")), join(pkg, name));
    }
    writeFileSync(join(dir, "pnpm-ws", "node_modules", ".modules.yaml"), "own file");
    const objects = join(dir, "pnpm-ws", ".git", "objects", "ab");
    mkdirSync(objects, { recursive: true });
    writeFileSync(join(outside, "object"), "o");
    linkSync(join(outside, "object"), join(objects, "cdef")); // git clone --local does this
    const result = scanWritableRoots([join(dir, "pnpm-ws")], []);
    expect(result.linkedOutsideDirs).toEqual([pkg]); // not .git/objects/ab: git adds objects there
    expect(result.linkedOutside).toEqual([
      join(objects, "cdef"),
      join(pkg, "index.js"),
      join(pkg, "lib", "util.js"),
    ]);
  });
  test("stops with an error beyond the entry limit instead of scanning partially", () => {
    expect(() => scanWritableRoots([ws], [], 3)).toThrow(ScanLimitError);
  });
});
