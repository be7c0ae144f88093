/**
 * rustup's proxies run the toolchain a `rust-toolchain(.toml)` picks, and its `path` may name any
 * directory: verified with rustup 1.29, `[toolchain] path = "/abs/t"` in the workspace made
 * `cargo --version` run `/abs/t/bin/cargo`. A sandboxed command may write both files, so the next
 * "read-only" `cargo --version` on the host would run its program: it asks while such a file is there.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { TOOLCHAIN_PROGRAMS, toolchainFiles } from "../../src/bash/toolchains.ts";
import { decide } from "../../src/policy/decide.ts";
import { buildRequest } from "../../src/policy/request.ts";
import { pickingFile } from "../../src/policy/toolchain-file.ts";
import { type Sandbox, sandbox } from "./helpers.ts";

let box: Sandbox;
beforeAll(() => {
  box = sandbox();
  mkdirSync(join(box.cwd, "crate/src"), { recursive: true });
  writeFileSync(join(box.cwd, "crate/rust-toolchain.toml"), '[toolchain]\npath = "/tmp/t"\n');
  mkdirSync(join(box.cwd, "plain"));
  mkdirSync(join(box.cwd, "web/src"), { recursive: true });
  writeFileSync(join(box.cwd, "web/.npmrc"), "registry=http://127.0.0.1:18766/\nlogs-dir=/tmp/x\n");
  mkdirSync(join(box.cwd, "yarnish"));
  writeFileSync(join(box.cwd, "yarnish/.yarnrc.yml"), "yarnPath: ./evil.cjs\n");
  mkdirSync(join(box.cwd, "bunny"));
  writeFileSync(join(box.cwd, "bunny/bunfig.toml"), '[install]\nregistry = "http://127.0.0.1:18766/"\n');
});

async function decision(command: string): Promise<string> {
  const bash = await analyzeBash(command);
  return decide(buildRequest({ tool: "Bash", input: { command }, cwd: box.cwd, bash }), box.load().policy)
    .decision;
}

test("every rustup proxy is looked up with both file names", () => {
  for (const program of ["cargo", "rustc", "rustup", "rustfmt"]) {
    expect(TOOLCHAIN_PROGRAMS.has(program)).toBe(true);
    expect(toolchainFiles(program)).toEqual(["rust-toolchain", "rust-toolchain.toml"]);
  }
  expect(toolchainFiles("git")).toEqual([]);
});

test("the file is found in the directory or above it, not above the workspace", () => {
  const names = toolchainFiles("cargo");
  expect(pickingFile(join(box.cwd, "crate/src"), [box.cwd], names)).toBe(
    join(box.cwd, "crate/rust-toolchain.toml"),
  );
  expect(pickingFile(join(box.cwd, "plain"), [box.cwd], names)).toBeUndefined();
  expect(pickingFile("/usr", [box.cwd], names)).toBeUndefined();
  // Outside every root the search goes up to `/` (a host's shell may have moved out of the workspace).
  expect(pickingFile(join(box.home, "x"), [box.cwd], names)).toBeUndefined();
  writeFileSync(join(box.home, "rust-toolchain.toml"), "[toolchain]\n");
  expect(pickingFile(join(box.home, "x"), [box.cwd], names)).toBe(join(box.home, "rust-toolchain.toml"));
});

describe("a proxy under a toolchain file asks; elsewhere it stays read-only", () => {
  for (
    const command of ["cd crate && cargo --version", "cd crate/src && rustc --version", "cd crate; cargo -V"]
  ) {
    test(command, async () => expect(await decision(command)).toBe("ask"));
  }
  for (const command of ["cargo --version", "cd plain && rustc --version"]) {
    test(command, async () => expect(await decision(command)).toBe("allow"));
  }
  // Real bash 5.2: `cd su? && cargo -V` entered sub/ and ran the program its rust-toolchain.toml named.
  for (const command of ["cd cra?e && cargo -V", "cd cr* && rustc --version"]) {
    test(`${command}: the directory a pattern picks is looked at`, async () => {
      expect(await decision(command)).toBe("ask");
    });
  }
});

// npm 10 with a workspace .npmrc naming `registry=http://127.0.0.1:18766/` and `logs-dir=/tmp/x`:
// `npm ls` sent its update check to that listener and wrote its debug log in /tmp/x.
describe("package managers under a config file in the workspace ask; elsewhere their reads stay read-only", () => {
  for (const command of ["cd web && npm ls", "cd web/src && npm root", "cd yarnish && yarn --version"]) {
    test(command, async () => expect(await decision(command)).toBe("ask"));
  }
  for (const command of ["npm ls", "cd plain && npm why x"]) {
    test(command, async () => expect(await decision(command)).toBe("allow"));
  }
  // (.npmrc and .yarnrc.yml are also secrets files by default: that rule's ask speaks first there.)
  test("the reason names the file and what it picks", async () => {
    const command = "cd bunny && bun --version";
    const bash = await analyzeBash(command);
    const d = decide(
      buildRequest({ tool: "Bash", input: { command }, cwd: box.cwd, bash }),
      box.load().policy,
    );
    expect(d.reason).toContain(`${join(box.cwd, "bunny/bunfig.toml")}, which picks the registry it contacts`);
  });
});
