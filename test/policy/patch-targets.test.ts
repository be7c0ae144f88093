/**
 * Writers past Edit rules: the files a patch writes are read from the patch when deciding
 * (src/policy/patch-targets.ts), a patch that cannot be read keeps the sandbox from standing in
 * under an Edit rule, and `/proc/self/cwd/...`, `/proc/self/root/...` reach rules as the file they
 * name. Each hostile line is also run for real to show it writes the file the rule protects.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withBashParser } from "../../src/cli/check-call.ts";
import { patchWrites, targetNames } from "../../src/policy/patch-targets.ts";
import { gitTestEnv } from "../helpers/git-env.ts";
import { checkedBash, sandbox } from "./helpers.ts";

const box = sandbox();
const root = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-patch-targets-")));

const PATCH_A = "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-hello\n+EVIL\n";
const PATCH_B = "diff --git a/b.txt b/b.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-b\n+B\n";

/** A fresh repository: a.txt and b.txt committed, x.patch changing a.txt, y.patch changing b.txt. */
function workspace(): string {
  const ws = mkdtempSync(join(root, "ws-"));
  writeFileSync(join(ws, "a.txt"), "hello\n");
  writeFileSync(join(ws, "b.txt"), "b\n");
  const made = spawnSync("bash", ["-c", "git init -q && git add a.txt b.txt && git commit -qm base"], {
    cwd: ws,
    env: gitTestEnv(),
    encoding: "utf8",
  });
  if (made.status !== 0) throw new Error(made.stderr);
  writeFileSync(join(ws, "x.patch"), PATCH_A);
  writeFileSync(join(ws, "y.patch"), PATCH_B);
  mkdirSync(join(ws, "sub"));
  return ws;
}

let ws: string;
beforeAll(async () => {
  await withBashParser();
  ws = workspace();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function decided(command: string, rules: { deny?: string[]; ask?: string[] }, sandboxed: boolean) {
  return (await checkedBash(box, command, { sandboxed, cliRules: rules, cwd: ws })).decision;
}

const DENY_A = { deny: ["Edit(./a.txt)"] };

describe("the names a patch writes", () => {
  test("git, unified and context headers; renames; quoted names; /dev/null", () => {
    expect(targetNames(PATCH_B, 1)).toEqual(["b.txt"]);
    expect(targetNames("--- a/x.c\t2024-01-01 10:00\n+++ b/x.c\t2024-01-01 11:00\n", 1)).toEqual(["x.c"]);
    expect(targetNames("*** a/x.c\n--- b/x.c\n", 1)).toEqual(["x.c"]);
    expect(targetNames("diff --git a/o b/n\nrename from o\nrename to n\n", 1)).toEqual(["o", "n"]);
    expect(targetNames('diff --git "a/x\\ty" "b/x\\ty"\n', 1)).toEqual(["x\ty"]);
    expect(targetNames("--- /dev/null\n+++ b/new.txt\n", 1)).toEqual(["new.txt"]);
    expect(targetNames("--- a/src/x.ts\n+++ b/src/x.ts\n", 2)).toEqual(["x.ts"]);
  });
  test("with no -p (GNU patch guessing): as written, one component off, and the base name", () => {
    expect(targetNames("--- a/src/x.ts\n+++ b/src/x.ts\n", undefined).sort()).toEqual(
      ["a/src/x.ts", "b/src/x.ts", "src/x.ts", "x.ts"].sort(),
    );
  });
  test("names that climb out are not targets (git apply and patch refuse them)", () => {
    expect(targetNames("--- a/../x\n+++ b/../x\n", 1)).toEqual([]);
  });
  test("an unreadable patch writes unknown files below where it applies", () => {
    const use = { index: 0, tool: "git apply", dirs: ["."], files: ["gone.patch"], strip: 1 };
    expect(patchWrites(use, () => "/w", () => undefined)).toMatchObject([
      { path: "/w", access: "write", below: expect.stringContaining("gone.patch") },
    ]);
    expect(patchWrites(use, () => "/w", () => PATCH_A)).toEqual([
      { path: "/w/a.txt", access: "write", command: "git" },
    ]);
  });
});

describe("Edit deny on a.txt holds for the patch that writes it", () => {
  test.each([
    "git apply x.patch",
    "git apply -v --index x.patch",
    "git apply < x.patch",
    "patch -p1 < x.patch",
    "patch -p1 -i x.patch",
    "patch -p1 --input=x.patch",
    "patch < x.patch",
    "patch a.txt y.patch",
    "git -C sub apply --directory=.. ../x.patch",
    "echo x > /proc/self/cwd/a.txt",
    "echo x >> /proc/thread-self/cwd/a.txt",
    "cp b.txt /proc/self/cwd/a.txt",
  ])("%s is denied, on the host and in the sandbox", async (command) => {
    expect(await decided(command, DENY_A, true)).toBe("deny");
    expect(await decided(command, DENY_A, false)).toBe("deny");
  });

  test("/proc/self/root reaches the same file by its absolute path", async () => {
    const command = `echo x > /proc/self/root${ws}/a.txt`;
    expect(await decided(command, DENY_A, true)).toBe("deny");
  });

  test.each([
    "git diff | git apply",
    "cat x.patch | git apply",
    "git apply missing.patch",
    "curl -s u | patch -p1",
  ])(
    "a patch not known before it runs asks in the sandbox: %s",
    async (command) => {
      expect(await decided(command, DENY_A, true)).toBe("ask");
      expect(await decided(command, { ask: ["Edit(./sub/**)"] }, true)).toBe("ask");
    },
  );

  test("what stays allowed in the sandbox", async () => {
    for (const command of ["git apply y.patch", "patch -p1 < y.patch", "git apply --check x.patch"]) {
      expect(await decided(command, DENY_A, true), command).toBe("allow");
    }
    for (const command of ["git diff | git apply", "git apply x.patch", "curl -s u | git apply"]) {
      expect(await decided(command, {}, true), command).toBe("allow");
    }
    // An Edit rule elsewhere is not met by a patch of unknown content here.
    expect(await decided("git diff | git apply", { deny: ["Edit(//etc/**)"] }, true)).toBe("allow");
  });

  test("an open file descriptor is a file known only when it runs", async () => {
    expect(await decided("echo x > /dev/fd/5", DENY_A, true)).toBe("ask");
  });
});

describe("the lines really write a.txt (real git, patch, bash)", () => {
  test.each([
    "git apply x.patch",
    "patch -p1 < x.patch",
    "patch -p1 -i x.patch",
    "echo EVIL > /proc/self/cwd/a.txt",
  ])("%s", (command) => {
    const fresh = workspace();
    spawnSync("bash", ["-c", command], { cwd: fresh, env: gitTestEnv(), encoding: "utf8" });
    expect(readFileSync(join(fresh, "a.txt"), "utf8")).toBe("EVIL\n");
  });
});
