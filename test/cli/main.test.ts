import { describe, expect, test } from "bun:test";
import packageJson from "../../package.json" with { type: "json" };
import { commandWordOf } from "../../src/cli/main.ts";
import { runCli } from "../helpers/cli.ts";

describe("toolrt (no subcommand logic)", () => {
  test("--version prints the package version", () => {
    const run = runCli(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(packageJson.version);
  });
  test("--help lists the subcommands and global options", () => {
    const run = runCli(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("tools");
    for (const flag of ["--cwd", "--state-dir", "--policy", "--allow", "--deny", "--mode", "--no-color"]) {
      expect(run.stdout).toContain(flag);
    }
  });
  test("an unknown command is a one-line error and exit 2", () => {
    const run = runCli(["frobnicate"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("unknown command 'frobnicate'");
  });
  test("a bad flag is a one-line error and exit 2", () => {
    const run = runCli(["tools", "--frob"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("--frob");
  });
  test("an invalid --mode names the allowed choices, exit 2", () => {
    const run = runCli(["tools", "--mode", "yolo"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("bypassPermissions");
  });
  test("a malformed rule says where and what, exit 2, no stack trace", () => {
    const run = runCli(["--deny", "Bash(", "tools"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("missing closing");
    expect(run.stderr).not.toContain("    at ");
  });
  test("--debug adds the stack trace", () => {
    const run = runCli(["--debug", "--deny", "Bash(", "tools"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("    at ");
  });
});

describe("commandWordOf: which command module to load", () => {
  test("skips global options and their values", () => {
    expect(commandWordOf(["--cwd", "/w", "--deny", "Bash", "tools", "--json"])).toBe("tools");
    expect(commandWordOf(["--no-color", "--claude-settings", "check", "Bash", "ls"])).toBe("check");
    expect(commandWordOf(["--mode=plan", "run"])).toBe("run");
  });
  test("no command word: none", () => {
    expect(commandWordOf(["--version"])).toBeUndefined();
    expect(commandWordOf([])).toBeUndefined();
    expect(commandWordOf(["--cwd", "tools"])).toBeUndefined();
  });
  test("a value that looks like a command after a value option is not taken for one", () => {
    expect(commandWordOf(["--policy", "check", "tools"])).toBe("tools");
  });
});
