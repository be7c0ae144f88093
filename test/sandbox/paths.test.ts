import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { entryKind, expandPath, listingResolveReal, resolveReal } from "../../src/sandbox/paths.ts";
import { isInside as isWithin } from "../../src/tool/paths.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-paths-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("expandPath", () => {
  const context = { home: "/home/u", base: "/work/ws" };
  const cases: Array<[string, string]> = [
    ["~", "/home/u"],
    ["~/.ssh", "/home/u/.ssh"],
    ["src/../build", "/work/ws/build"],
    ["../other", "/work/other"],
    ["/etc/./ssh/", "/etc/ssh"],
    ["dir with spaces/x", "/work/ws/dir with spaces/x"],
    ["~user", "/work/ws/~user"],
  ];
  for (const [input, expected] of cases) {
    test(`${input} -> ${expected}`, () => expect(expandPath(input, context)).toBe(expected));
  }
});

describe("resolveReal", () => {
  mkdirSync(join(dir, "real dir"));
  writeFileSync(join(dir, "real dir", "f"), "x");
  symlinkSync(join(dir, "real dir"), join(dir, "link"));
  symlinkSync(join(dir, "nowhere", "deeper"), join(dir, "dangling"));
  symlinkSync(join(dir, "loop-b"), join(dir, "loop-a"));
  symlinkSync(join(dir, "loop-a"), join(dir, "loop-b"));

  test("follows a symlinked directory", () =>
    expect(resolveReal(join(dir, "link", "f"))).toBe(join(dir, "real dir", "f")));
  test("keeps a missing tail under a resolved ancestor", () =>
    expect(resolveReal(join(dir, "link", "new", "file"))).toBe(join(dir, "real dir", "new", "file")));
  test("follows a dangling link to where a write would land", () =>
    expect(resolveReal(join(dir, "dangling", "x"))).toBe(join(dir, "nowhere", "deeper", "x")));
  test("folds .. before resolving", () =>
    expect(resolveReal(join(dir, "link", "..", "link"))).toBe(join(dir, "real dir")));
  test("a loop is null, not a hang", () => expect(resolveReal(join(dir, "loop-a", "x"))).toBeNull());
  test("listingResolveReal: the same answers, one resolver for all in a row", () => {
    mkdirSync(join(dir, "nowhere"));
    symlinkSync(join(dir, "link", "later"), join(dir, "real dir", "to-later"));
    symlinkSync(join(dir, "dangling", "y"), join(dir, "via-dangling"));
    const paths = [
      "link/f",
      "link/new/file",
      "link/f/under-a-file",
      "dangling/x",
      "dangling/x/y/z",
      "via-dangling/w",
      "real dir/to-later/x",
      "nowhere",
      "nowhere/absent/deeper",
      "absent",
      "absent/deeper",
      "loop-a/x",
      "loop-b",
      "link/../link",
    ].map((p) => join(dir, p));
    const listing = listingResolveReal();
    for (const path of [...paths, ...paths]) expect([path, listing(path)]).toEqual([path, resolveReal(path)]);
    expect(listing(join(dir, "via-dangling", "w"))).toBe(join(dir, "nowhere", "deeper", "y", "w"));
  });
  test("entryKind does not follow the last link", () => {
    expect(entryKind(join(dir, "link"))).toBe("symlink");
    expect(entryKind(join(dir, "real dir"))).toBe("dir");
    expect(entryKind(join(dir, "real dir", "f"))).toBe("file");
    expect(entryKind(join(dir, "absent"))).toBe("missing");
  });
});

describe("isWithin", () => {
  test("a path is within itself and its ancestors only", () => {
    expect(isWithin("/a/b", "/a")).toBe(true);
    expect(isWithin("/a", "/a")).toBe(true);
    expect(isWithin("/ab", "/a")).toBe(false);
    expect(isWithin("/anything", "/")).toBe(true);
  });
});
