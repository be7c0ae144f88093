import { afterAll, describe, expect, test } from "bun:test";
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scanWritableRoots, TreeIndexes } from "../../src/sandbox/scan.ts";
import { refreshTree } from "../../src/sandbox/tree-index.ts";

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
});

describe("tree indexes", () => {
  const tree = join(dir, "indexed");
  const deep = join(tree, "a", "b", "c");
  mkdirSync(deep, { recursive: true });
  for (let i = 0; i < 50; i++) writeFileSync(join(deep, `f${i}`), "x");
  const settle = () => Bun.sleepSync(40); // past the clock tick within which a change counts as racy

  test("an unchanged tree is revalidated without reading any directory", () => {
    settle();
    const first = refreshTree(tree, null);
    expect(first.reread).toBe(4);
    settle();
    const again = refreshTree(tree, refreshTree(tree, first.index).index);
    expect(again.reread).toBe(0);
    expect(again.index!.dirs.map((d) => d.p)).toEqual(first.index!.dirs.map((d) => d.p));
  });
  test("a hard link made from outside into an indexed directory is found on the next scan", () => {
    const indexes = new TreeIndexes(join(dir, "state-index"));
    settle();
    expect(scanWritableRoots([tree], [], indexes).linkedOutside).toEqual([]);
    writeFileSync(join(outside, "late"), "l");
    linkSync(join(outside, "late"), join(deep, "late"));
    expect(scanWritableRoots([tree], [], new TreeIndexes(join(dir, "state-index"))).linkedOutside).toEqual([
      join(deep, "late"),
    ]);
  });
  test("setting a directory's times back does not hide a change (its change time moves anyway)", () => {
    const indexes = new TreeIndexes(join(dir, "state-index-2"));
    settle();
    scanWritableRoots([tree], [], indexes);
    settle();
    const before = lstatSync(deep);
    mkdirSync(join(deep, "sub", ".git"), { recursive: true });
    utimesSync(deep, before.atime, before.mtime);
    expect(scanWritableRoots([tree], [], indexes).nestedGitDirs).toEqual([join(deep, "sub", ".git")]);
  });
  test("a link count that grows from outside is seen for files already known to be multi-linked", () => {
    const twin = join(tree, "a", "twin");
    writeFileSync(twin, "t");
    linkSync(twin, join(tree, "a", "twin2")); // both inside
    const indexes = new TreeIndexes();
    settle();
    expect(scanWritableRoots([tree], [], indexes).linkedOutside).not.toContain(twin);
    linkSync(twin, join(outside, "twin-outside"));
    expect(scanWritableRoots([tree], [], indexes).linkedOutside).toContain(twin);
  });
  test.skipIf(process.getuid?.() === 0)("a directory it cannot read is reported, never skipped", () => {
    const locked = join(tree, "locked");
    mkdirSync(locked);
    chmodSync(locked, 0);
    try {
      expect(scanWritableRoots([tree], []).unreadable).toEqual([locked]);
    } finally {
      chmodSync(locked, 0o755);
    }
  });
});
