import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { displayPath, isInsideWorkspace, resolveToolPath } from "../../../src/tools/shared/paths.ts";
import { similarNames } from "../../../src/tools/shared/similar-names.ts";
import { tempDir } from "../helpers.ts";

test("paths resolve against cwd, normalise `..` and expand `~` only at the start", () => {
  expect(resolveToolPath("a/../b.ts", "/w")).toBe("/w/b.ts");
  expect(resolveToolPath("/abs/x", "/w")).toBe("/abs/x");
  expect(resolveToolPath("~", "/w")).toBe(homedir());
  expect(resolveToolPath("dir/~/x", "/w")).toBe("/w/dir/~/x");
});

test("display paths are relative inside cwd and absolute outside", () => {
  expect(displayPath("/w/src/a.ts", "/w")).toBe("src/a.ts");
  expect(displayPath("/w", "/w")).toBe(".");
  expect(displayPath("/wx/a.ts", "/w")).toBe("/wx/a.ts");
});

test("the workspace test follows symlinks and does not confuse sibling prefixes", () => {
  const root = tempDir();
  const outside = tempDir();
  mkdirSync(join(root, "ws"));
  symlinkSync(outside, join(root, "ws", "out"));
  const ctx = { cwd: join(root, "ws"), additionalDirs: [] };
  expect(isInsideWorkspace(join(root, "ws", "a", "new.txt"), ctx)).toBe(true);
  expect(isInsideWorkspace(join(root, "ws-other", "a.txt"), ctx)).toBe(false);
  expect(isInsideWorkspace(join(root, "ws", "out", "not-yet.txt"), ctx)).toBe(false);
});

test("similar names prefer the same stem, then small edit distances", async () => {
  const dir = tempDir();
  for (const name of ["index.ts", "index.test.ts", "main.ts", "unrelated.md"]) {
    writeFileSync(join(dir, name), "");
  }
  expect(await similarNames(join(dir, "index.js"))).toEqual(["index.ts"]);
  expect(await similarNames(join(dir, "mian.ts"))).toEqual(["main.ts"]);
  expect(await similarNames(join(dir, "zzzzzzzz"))).toEqual([]);
});
