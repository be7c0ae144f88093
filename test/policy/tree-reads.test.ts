/**
 * Commands that walk directory trees are judged by what the tree holds when they are checked.
 * Each form was verified in real bash: `grep -r KEY .` printed `.env:API_KEY=...`, `grep -R`,
 * `rg -L`, `ls -RL`, `du -aL` and `find -follow` went through a link in the workspace into a
 * directory outside it (a key under `~/.ssh` was printed by `grep -R` and `rg -L`). Plain `rg KEY`
 * passed `config/.env` over (hidden); `rg --hidden KEY` printed it. `git grep KEY` printed a
 * tracked `.env`, with `--untracked` or `--no-index` an untracked one.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { treeRead } from "../../src/bash/recursion.ts";
import { MAX_TREE_ENTRIES, walkTree } from "../../src/policy/tree-walk.ts";
import type { Decision } from "../../src/policy/types.ts";
import { bashDecision, type Sandbox, sandbox } from "./helpers.ts";

let box: Sandbox;
let clean: string;
let outside: string;

beforeAll(() => {
  box = sandbox();
  outside = join(box.root, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "notes"), "outside\n");
  mkdirSync(join(box.cwd, "src/deep"), { recursive: true });
  writeFileSync(join(box.cwd, "src/deep/a.ts"), "// TODO\n");
  mkdirSync(join(box.cwd, "config"));
  writeFileSync(join(box.cwd, "config/.env"), "API_KEY=x\n");
  mkdirSync(join(box.cwd, "linked"));
  symlinkSync(outside, join(box.cwd, "linked/out"));
  clean = join(box.cwd, "src");
});

const check = (command: string, cliRules?: Record<string, string[]>): Promise<Decision> =>
  bashDecision(box, command, { sandboxed: false, cliRules });

describe("which commands walk trees, and which follow links", () => {
  const options = (...names: string[][]) => names.map((n) => ({ names: n, negated: false }));
  test("grep walks with -r, -R or -d recurse (any unambiguous start of it); -R follows", () => {
    expect(treeRead("grep", [])).toBeUndefined();
    expect(treeRead("grep", options(["-r", "--recursive"]))).toEqual({
      contents: true,
      follow: false,
      hidden: true,
    });
    expect(treeRead("grep", options(["-R", "--dereference-recursive"]))).toEqual({
      contents: true,
      follow: true,
      hidden: true,
    });
    expect(treeRead("grep", [{ names: ["-d", "--directories"], negated: false, value: "rec" }]))
      .toBeDefined();
    expect(treeRead("grep", [{ names: ["-d", "--directories"], negated: false, value: "read" }]))
      .toBeUndefined();
  });
  test("rg always walks; ls only with -R; listings do not read contents", () => {
    expect(treeRead("rg", options(["-L", "--follow"]))).toEqual({
      contents: true,
      follow: true,
      hidden: false,
    });
    expect(treeRead("rg", options(["--hidden", "-."]))).toEqual({
      contents: true,
      follow: false,
      hidden: true,
    });
    expect(treeRead("ls", [])).toBeUndefined();
    expect(treeRead("ls", options(["-R", "--recursive"]))).toEqual({
      contents: false,
      follow: false,
      hidden: true,
    });
    expect(treeRead("find", options(["-follow"]))).toEqual({ contents: false, follow: true, hidden: true });
  });
});

describe("walkTree", () => {
  test("finds files below, skips .git, follows nothing unless asked", () => {
    const found = walkTree(box.cwd, false)!;
    expect(found.files).toContain(join(box.cwd, "config/.env"));
    expect(found.links).toEqual([]);
    expect(walkTree(box.cwd, true)!.links).toEqual([join(box.cwd, "linked/out")]);
  });
  test("past the limit it gives up", () => {
    const big = join(box.root, "big");
    mkdirSync(big);
    for (let i = 0; i <= MAX_TREE_ENTRIES; i++) writeFileSync(join(big, `f${i}`), "");
    expect(walkTree(big, false)).toBeUndefined();
  });
});

test("plain rg passes hidden entries over, so a hidden secrets file does not make it ask", async () => {
  expect((await check("rg KEY src")).decision).toBe("allow");
  expect((await check("rg KEY config")).decision).toBe("allow");
});

describe("a secrets file below the tree asks, as reading it by name does", () => {
  for (
    const command of [
      "grep -r KEY .",
      "grep -r KEY",
      "grep --recu KEY config",
      "grep --dir=rec KEY .",
      "rg --hidden KEY",
      "rg -uu KEY",
      "git grep KEY",
      "git grep --untracked KEY",
      "git grep --no-index KEY -- src",
    ]
  ) {
    test(command, async () => {
      const d = await check(command);
      expect(d.decision, command).toBe("ask");
      expect(d.reason).toMatch(/secrets file/);
    });
  }
  test("a user's prefix rule does not beat the ask", async () => {
    expect((await check("grep -rn KEY config", { allow: ["Bash(grep:*)"] })).decision).toBe("ask");
  });
  test("a deny rule for a directory holds against the walk", async () => {
    expect((await check("grep -r KEY .", { deny: ["Read(./config/**)"] })).decision).toBe("deny");
  });
});

describe("a followed link out of the workspace is a read outside it", () => {
  for (
    const command of [
      "grep -R x linked",
      "rg -L x linked",
      "ls -RL linked",
      "du -aL linked",
      "find linked -follow",
    ]
  ) {
    test(command, async () => {
      const d = await check(command);
      expect(d.decision, command).toBe("ask");
      expect(d.reason).toMatch(/outside the workspace/);
    });
  }
});

describe("trees without secrets or links out stay read-only", () => {
  for (
    const command of [
      "grep -rn TODO src",
      "rg TODO src",
      "ls -R src",
      "find linked",
      "du -sh linked",
      "ls -RL src",
    ]
  ) {
    test(command, async () => {
      const d = await check(command);
      expect(d.decision, `${command}: ${d.reason}`).toBe("allow");
    });
  }
  test("the clean directory really holds files", () => {
    expect(walkTree(clean, false)!.files.length).toBeGreaterThan(0);
  });
});

/** The decision for a call that runs in a sandbox confining writes to the workspace, network off. */
function checkSandboxed(command: string): Promise<Decision> {
  return bashDecision(box, command, { sandboxed: true });
}

// Each printed or copied `config/.env` in real bash 5.2 (GNU tar 1.34, cp 9.1, Info-ZIP 3.0, diff
// 3.8, findutils 4.9): `tar -cf - . | tar -xOf -`, `find -exec cat {} +`, `cp -r` then `cat`,
// `zip -r` then `unzip -p`, `diff -rN DIR EMPTY` (which follows links unless --no-dereference).
describe("archivers, copiers and find -exec read the tree they are given, in the sandbox too", () => {
  for (
    const command of [
      "tar -cf - . | tar -xOf -",
      "tar cf - config",
      "tar -czf out.tgz config",
      "tar --cre -f out.tar config",
      "cp -r config copy",
      "cp -a . ../elsewhere",
      "cp --recur config copy",
      "zip -r out.zip .",
      "rsync -a config/ copy",
      "scp -r config host:x",
      "find . -type f -exec cat {} +",
      "find config -exec head {} ;",
      "diff -rN config src",
    ]
  ) {
    test(command, async () => {
      for (const d of [await check(command), await checkSandboxed(command)]) {
        expect(d.decision, `${command}: ${d.reason}`).toBe("ask");
        expect(d.reason).toMatch(/secrets file/);
      }
    });
  }
  test("the same walks over a tree with no secrets run in the sandbox", async () => {
    for (
      const command of ["tar -czf out.tgz src", "cp -r src copy", "find src -name '*.ts' -exec wc -l {} +"]
    ) {
      const d = await checkSandboxed(command);
      expect(d.decision, `${command}: ${d.reason}`).toBe("allow");
    }
    expect((await check("diff -r src src")).decision).toBe("allow");
  });
  test("diff -r follows a link out unless told not to", async () => {
    expect((await check("diff -r linked src")).reason).toMatch(/outside the workspace/);
    expect((await check("diff -r --no-dereference linked src")).decision).toBe("allow");
  });
});

// Real bash 5.2: with a file `-R` beside `config/`, `grep KEY *` printed config/.env's line.
test("a line that may create files makes a bare pattern's expansion known only when it runs", async () => {
  for (const command of ["touch ./-R; grep KEY *", "cp src/deep/a.ts ./-r && grep -n KEY *"]) {
    const d = await checkSandboxed(command);
    expect(d.decision, `${command}: ${d.reason}`).toBe("ask");
  }
  expect((await checkSandboxed("grep KEY *")).decision).toBe("allow");
  expect((await checkSandboxed('for f in *.md; do mv "$f" docs/; done')).decision).toBe("allow");
});
