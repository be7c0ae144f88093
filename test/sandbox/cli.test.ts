import { describe, expect, test } from "bun:test";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newProgram } from "../../src/cli/program.ts";
import { register } from "../../src/cli/sandbox.ts";
import { fastSandboxArgs } from "../../src/cli/sandbox-command.ts";
import { detectSandbox } from "../../src/sandbox/detect.ts";
import { runCli } from "../helpers/cli.ts";

const ws = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-cli-sbx-")));
/** A PATH without bwrap: the no-sandbox case on any machine. */
const noBwrap = { PATH: "/nonexistent" };

describe("toolrt sandbox without a usable sandbox", () => {
  test("refuses with exit 2 and says why", () => {
    const run = runCli(["sandbox", "--workspace", ws, "--", "/bin/echo", "ran"], { env: noBwrap });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("no usable sandbox: bubblewrap (bwrap) is not installed");
    expect(run.stderr).toContain("--allow-unsandboxed");
  });
  test("--allow-unsandboxed runs it with a warning and keeps its exit status", () => {
    const run = runCli(["sandbox", "--allow-unsandboxed", "--", "/bin/sh", "-c", "echo ran; exit 5"], {
      env: noBwrap,
    });
    expect(run.code).toBe(5);
    expect(run.stdout).toBe("ran\n");
    expect(run.stderr).toContain("WITHOUT a sandbox");
  });
  test("no command is a usage error", () => {
    expect(runCli(["sandbox"]).code).toBe(2);
  });
});

describe.skipIf(!detectSandbox().available)("toolrt sandbox with bwrap", () => {
  test("exit status is the command's and the workspace is writable", () => {
    const run = runCli([
      "sandbox",
      "--workspace",
      ws,
      "--",
      "/bin/sh",
      "-c",
      "echo hi > f && cat f && exit 3",
    ], { cwd: ws });
    expect(run.code).toBe(3);
    expect(run.stdout).toBe("hi\n");
  });
  test("--unset-env drops a variable the defaults keep", () => {
    const run = runCli([
      "sandbox",
      "--unset-env",
      "KIT_*",
      "--",
      "/bin/sh",
      "-c",
      'echo "[$KIT_VALUE][$PLAIN]"',
    ], {
      cwd: ws,
      env: { KIT_VALUE: "x", PLAIN: "y" },
    });
    expect(run.stdout).toBe("[][y]\n");
  });
});

describe("the compiled binary's sandbox entry reads plain lines without commander", () => {
  /** What commander makes of `argv` (the action replaced, so nothing runs). */
  function viaCommander(argv: string[]) {
    const program = newProgram([register]);
    let seen: { options: Record<string, unknown>; command: string[] } | undefined;
    program.commands.find((c) => c.name() === "sandbox")!.action((command: string[], options) => {
      seen = { options: { ...options }, command };
    });
    program.parse(argv, { from: "user" });
    return seen;
  }
  const lines = [
    ["sandbox", "--", "true"],
    [
      "sandbox",
      "--workspace",
      "/w",
      "--deny-read",
      "/a",
      "--deny-read=/b",
      "--unset-env",
      "K_*",
      "--",
      "sh",
      "-c",
      "x",
    ],
    [
      "sandbox",
      "--allow-write",
      "/x",
      "--allow-net",
      "h:1",
      "--deny-write",
      "/w/y",
      "--allow-unsandboxed",
      "--",
      "a",
    ],
    ["sandbox", "--workspace", "/one", "--workspace", "/two", "--", "a", "--workspace", "--"],
  ];
  test.each(lines)("%j: the same options and command as commander", (...argv) => {
    expect(fastSandboxArgs(argv)).toEqual(viaCommander(argv));
  });
  test("other shapes are left to commander", () => {
    for (
      const argv of [
        ["sandbox", "true"],
        ["sandbox", "--help"],
        ["sandbox", "--cwd", "/x", "--", "true"],
        ["sandbox", "--workspace", "--", "true"],
        ["sandbox", "--"],
        ["sandbox", "--typo", "--", "true"],
        ["tools"],
      ]
    ) {
      expect(fastSandboxArgs(argv)).toBeUndefined();
    }
  });
});
