import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { IgnoreRules } from "../../../src/tools/shared/gitignore.ts";
import { tempDir } from "../helpers.ts";

function rulesFor(gitignore: string) {
  const dir = tempDir();
  writeFileSync(join(dir, ".gitignore"), gitignore);
  const rules = IgnoreRules.empty().enter(dir);
  return (rel: string, isDir = false) => rules.ignores(join(dir, rel), isDir);
}

test.each([
  ["*.log", "a.log", false, true, "a name pattern matches at the top"],
  ["*.log", "deep/er/a.log", false, true, "a name pattern matches at any depth"],
  ["/top.txt", "top.txt", false, true, "a leading slash anchors"],
  ["/top.txt", "sub/top.txt", false, false, "an anchored pattern does not match deeper"],
  ["doc/*.md", "doc/a.md", false, true, "a middle slash anchors"],
  ["doc/*.md", "x/doc/a.md", false, false, "an anchored pattern does not float"],
  ["doc/*.md", "doc/sub/a.md", false, false, "* stays within a segment"],
  ["build/", "build", true, true, "a trailing slash matches directories"],
  ["build/", "build", false, false, "a trailing slash does not match files"],
  ["**/cache", "a/b/cache", true, true, "leading ** matches any depth"],
  ["a/**/z", "a/z", false, true, "middle ** matches zero directories"],
  ["a/**/z", "a/b/c/z", false, true, "middle ** matches several directories"],
  ["out/**", "out/x/y.txt", false, true, "trailing ** matches everything inside"],
  ["file?.txt", "file1.txt", false, true, "? matches one character"],
  ["[ab].txt", "b.txt", false, true, "classes match"],
  ["[!ab].txt", "a.txt", false, false, "negated classes exclude"],
  ["*.log\n!keep.log", "keep.log", false, false, "a later ! re-includes"],
  ["!keep.log\n*.log", "keep.log", false, true, "order matters: the last match wins"],
  ["# comment\n\n\\#hash", "#hash", false, true, "comments and blanks are skipped; \\# is literal"],
  ["a.txt   ", "a.txt", false, true, "trailing spaces are trimmed"],
])("%j ignores %s (dir %s): %s → %s", (gitignore, rel, isDir, expected, why) => {
  expect(rulesFor(gitignore)(rel, isDir), why).toBe(expected);
});

test("nested .gitignore files add to their parents' rules, relative to their own directory", () => {
  const dir = tempDir();
  mkdirSync(join(dir, "sub"));
  writeFileSync(join(dir, ".gitignore"), "*.tmp\n");
  writeFileSync(join(dir, "sub/.gitignore"), "/only-here.txt\n!special.tmp\n");
  const rules = IgnoreRules.forRoot(dir).enter(join(dir, "sub"));
  expect(rules.ignores(join(dir, "sub/only-here.txt"), false)).toBe(true);
  expect(rules.ignores(join(dir, "sub/x.tmp"), false)).toBe(true);
  expect(rules.ignores(join(dir, "sub/special.tmp"), false)).toBe(false);
  expect(IgnoreRules.forRoot(dir).ignores(join(dir, "only-here.txt"), false)).toBe(false);
});
