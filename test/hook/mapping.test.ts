/** Pure pieces of the host mapping: the fast command line, shell argv, patch envelopes. */
import { describe, expect, test } from "bun:test";
import { patchedFiles } from "../../src/hook/apply-patch.ts";
import { fastHookInvocation } from "../../src/hook/args.ts";
import { commandText } from "../../src/hook/shell-command.ts";

describe("fastHookInvocation: only a plain hook call skips the full command line", () => {
  test.each(
    [
      [["hook"], { host: "claude-code", sandbox: false }],
      [["hook", "--host", "codex"], { host: "codex", sandbox: false }],
      [["hook", "--host=cursor"], { host: "cursor", sandbox: false }],
      [["hook", "--sandbox"], { host: "claude-code", sandbox: true }],
      [["hook", "--sandbox", "--host", "gemini-cli"], { host: "gemini-cli", sandbox: true }],
      [["hook", "--host=codex", "--sandbox"], { host: "codex", sandbox: true }],
      [["hook", "--sandbox", "--sandbox"], undefined],
      [["hook", "--host", "codex", "--host", "cursor"], undefined],
      [["hook", "--host"], undefined],
      [["hook", "--host", "nope"], undefined],
      [["hook", "--deny", "Bash"], undefined],
      [["hook", "install"], undefined],
      [["hook", "install", "--sandbox"], undefined],
      [["check", "Bash", "ls"], undefined],
      [["--cwd", "/x", "hook"], undefined],
    ] as const,
  )("%j → %j", (argv, invocation) => {
    expect(fastHookInvocation(argv)).toEqual(invocation);
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
