/** Pure pieces of the host mapping: the fast command line, shell argv, patch envelopes. */
import { describe, expect, test } from "bun:test";
import { patchedFiles } from "../../src/hook/apply-patch.ts";
import { fastHookHost } from "../../src/hook/args.ts";
import { commandText } from "../../src/hook/shell-command.ts";

describe("fastHookHost: only a plain hook call skips the full command line", () => {
  test.each(
    [
      [["hook"], "claude-code"],
      [["hook", "--host", "codex"], "codex"],
      [["hook", "--host=cursor"], "cursor"],
      [["hook", "--host", "nope"], undefined],
      [["hook", "--deny", "Bash"], undefined],
      [["hook", "install"], undefined],
      [["check", "Bash", "ls"], undefined],
      [["--cwd", "/x", "hook"], undefined],
    ] as const,
  )("%j → %s", (argv, host) => {
    expect(fastHookHost(argv)).toBe(host);
  });
});

describe("commandText", () => {
  test.each(
    [
      ["git status", "git status"],
      [["bash", "-lc", "ls | head"], "ls | head"],
      [["/bin/zsh", "-c", "echo hi"], "echo hi"],
      [["git", "commit", "-m", "it's done"], "git commit -m 'it'\\''s done'"],
      [[], undefined],
      [[1, 2], undefined],
      [{ command: "x" }, undefined],
    ] as const,
  )("%j → %j", (value, expected) => {
    expect(commandText(value)).toBe(expected);
  });
});

test("patchedFiles lists every file an apply_patch envelope writes, once", () => {
  const patch = [
    "*** Begin Patch",
    "*** Update File: src/a.ts",
    "*** Move to: src/b.ts",
    "@@",
    "-x",
    "+y",
    "*** Add File: docs/new.md",
    "+hello",
    "*** Delete File: old.txt",
    "*** Update File: src/a.ts",
    "*** End Patch",
  ].join("\n");
  expect(patchedFiles(patch)).toEqual(["src/a.ts", "src/b.ts", "docs/new.md", "old.txt"]);
  expect(patchedFiles("no patch here")).toEqual([]);
});
