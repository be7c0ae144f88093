import { expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { tempDir } from "../helpers/session-context.ts";

test("trust refuses a directory that does not exist or a file, records nothing, exit 2", () => {
  const root = tempDir();
  const state = join(root, "state");
  writeFileSync(join(root, "file.txt"), "x");
  for (
    const [target, why] of [["/nonexistent", "no such directory"], [
      join(root, "file.txt"),
      "not a directory",
    ]]
  ) {
    const run = runCli(["--state-dir", state, "trust", target!]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`cannot trust ${target}: `);
    expect(run.stderr).toContain(why!);
  }
  expect(existsSync(join(state, "trust.json"))).toBe(false);
});

test("trust records an existing directory; revoke works even once it is gone", () => {
  const root = tempDir();
  const state = join(root, "state");
  const ws = join(root, "ws");
  mkdirSync(ws);
  expect(runCli(["--state-dir", state, "trust", ws]).stdout).toContain(`${ws} is trusted`);
  const revoke = runCli(["--state-dir", state, "trust", "--revoke", join(root, "gone")]);
  expect(revoke.code).toBe(0);
});
