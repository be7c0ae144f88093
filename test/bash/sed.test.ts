import { describe, expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { parseSed, validateSed } from "../../src/bash/sed.ts";

const verdict = (...args: string[]) => validateSed(parseSed(args));

describe("sed validation", () => {
  test("line printing with -n is read-only", async () => {
    for (const script of ["5p", "1,10p", "1p;5p;10p", "$p", "/foo/p", "/a/,/b/p"]) {
      expect(verdict("-n", script, "f").valid, script).toBe(true);
      expect((await analyzeBash(`sed -n '${script}' f`)).readOnly, script).toBe(true);
    }
  });
  test("substitution with safe flags is read-only", async () => {
    for (
      const script of [
        "s/foo/bar/",
        "s/foo/bar/g",
        "s|a|b|gI",
        "s#a#b#2",
        "s/a\\/b/c/p",
        "y/abc/xyz/",
        "-E s/(a)/\\1/",
      ]
    ) {
      const args = script.startsWith("-E ") ? ["-E", script.slice(3)] : [script];
      expect(verdict(...args, "f").valid, script).toBe(true);
    }
    expect((await analyzeBash("sed 's/foo/bar/g' f")).readOnly).toBe(true);
    expect((await analyzeBash("sed -e 's/a/b/' -e 's/c/d/' f")).readOnly).toBe(true);
  });
  test("w and W (flags and commands) write files and cannot be prefix-allowed", () => {
    for (const script of ["s/a/b/w out", "s/a/b/W out", "1w out", "W out"]) {
      const v = verdict(script, "f");
      expect(v.valid, script).toBe(false);
      expect(v.danger, script).toContain("writes");
      expect(v.writes, script).toEqual(["out"]);
    }
  });
  test("e (flag and command) runs shell commands", () => {
    for (const script of ["s/a/id/e", "1e id", "e id"]) {
      expect(verdict(script, "f").danger, script).toContain("runs");
    }
  });
  test("negation, blocks, labels, odd delimiters, a backslash delimiter and non-ASCII are rejected", () => {
    for (
      const script of ["1!d", "1{p}", ":a;ba", "s\\a\\b\\", "saxbxcx", "s/a/é/", "r /etc/passwd", "a text"]
    ) {
      expect(verdict(script, "f").valid, script).toBe(false);
    }
  });
  test("-i is a write to the files; -i.bak, -i '' and --in-place are recognised", async () => {
    for (
      const c of [
        "sed -i 's/a/b/' f",
        "sed -i.bak 's/a/b/' f",
        "sed -i '' 's/a/b/' f",
        "sed --in-place=.b 's/a/b/' f",
        "sed -ni 's/a/b/p' f",
      ]
    ) {
      const a = await analyzeBash(c);
      expect(a.readOnly, c).toBe(false);
      expect(a.paths, c).toContainEqual({ command: "sed", path: "f", access: "write" });
    }
  });
  test("-f script files cannot be checked", () => {
    expect(verdict("-f", "x.sed", "f").danger).toContain("-f");
  });
});
