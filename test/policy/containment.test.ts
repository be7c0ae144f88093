/**
 * Regression file for containment on real paths (class B): whether a Bash command stays in the
 * workspace is judged on where its paths point when it is checked (symlinks, `link/..`, patterns
 * against the files there, tilde forms, `cd` earlier in the line), each form checked in real bash.
 * The workspace here is a temporary directory with a link to a directory outside it.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { decide } from "../../src/policy/decide.ts";
import { buildRequest } from "../../src/policy/request.ts";
import type { Decision } from "../../src/policy/types.ts";
import { expandPattern, realPathOfNearestExisting, resolvePath } from "../../src/tool/paths.ts";
import { MAX_TREE_ENTRIES } from "../../src/policy/tree-walk.ts";
import { patternMatcher } from "../../src/tool/shell-pattern.ts";
import { type Sandbox, sandbox } from "./helpers.ts";

let box: Sandbox;
let outside: string;
beforeAll(() => {
  box = sandbox();
  outside = join(box.root, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "secret"), "SECRET\n");
  mkdirSync(join(box.cwd, "sub"));
  writeFileSync(join(box.cwd, "a.txt"), "a\n");
  writeFileSync(join(box.cwd, ".env"), "K=v\n");
  symlinkSync(outside, join(box.cwd, "out"));
  symlinkSync(join(outside, "secret"), join(box.cwd, "s.txt"));
});

async function check(command: string): Promise<Decision> {
  const bash = await analyzeBash(command);
  const request = buildRequest({ tool: "Bash", input: { command }, cwd: box.cwd, home: box.home, bash });
  return decide(request, box.load().policy);
}

async function allowed(command: string): Promise<void> {
  const d = await check(command);
  expect(d.decision, `${command}: ${d.reason}`).toBe("allow");
}

async function asked(command: string, because: RegExp): Promise<void> {
  const d = await check(command);
  expect(d.decision, command).toBe("ask");
  expect(d.reason, command).toMatch(because);
}

describe("a directory read whole is judged by what is hidden or linked inside it", () => {
  // Each checked in real bash: `grep -r K .` prints .env's line, `grep -R SECRET .` follows out/.
  test("recursive searches meet .env and the link out", async () => {
    await asked("grep -r K .", /\.env/);
    await asked("grep -r K", /\.env/);
    mkdirSync(join(box.cwd, "deep"));
    symlinkSync(outside, join(box.cwd, "deep", "link"));
    await asked("grep -R SECRET deep", /outside\/secret|outside the workspace/);
    await asked("rg --hidden K", /\.env/);
    await asked("rg -L SECRET deep", /outside the workspace/);
  });
  test("a directory too big to look through asks", async () => {
    mkdirSync(join(box.cwd, "big"));
    for (let i = 0; i <= MAX_TREE_ENTRIES; i++) writeFileSync(join(box.cwd, "big", `f${i}`), "");
    await asked("grep -r x big", new RegExp(`more than ${MAX_TREE_ENTRIES} entries`));
  });
  test("a directory with nothing hidden or linked stays allowed, as does rg without --hidden", async () => {
    writeFileSync(join(box.cwd, "sub", "b.txt"), "b\n");
    await allowed("grep -rn b sub");
    await allowed("rg K sub");
  });
  test("rg passes hidden entries over unless told to enter them", async () => {
    mkdirSync(join(box.cwd, "app"));
    writeFileSync(join(box.cwd, "app", ".env"), "K=v\n");
    await allowed("rg K app");
    await asked("rg --hidden K app", /\.env/);
    await asked("rg -uu K app", /\.env/);
    await asked("grep -r K app", /\.env/);
  });
});

describe("symlinks are followed as the kernel follows them", () => {
  test("a link in the workspace to a file or directory outside is outside", async () => {
    await asked("cat s.txt", /points to .*outside\/secret outside the workspace/);
    await asked("cat out/secret", /points to .*outside\/secret outside/);
    await asked("ls out/", /outside the workspace/);
    await asked("cd out && cat secret", /outside the workspace/);
  });
  test("link/.. climbs from the link's target, not lexically", async () => {
    await asked("cat out/../outside/secret", /outside\/secret outside the workspace/);
    expect(realPathOfNearestExisting(`${box.cwd}/out/../outside/secret`)).toBe(join(outside, "secret"));
  });
  test("plain files inside stay allowed", async () => {
    await allowed("cat a.txt");
    await allowed("ls sub");
    await allowed("cd sub && ls");
  });
});

describe("patterns are judged by the files they match now", () => {
  test("globs that can match .env meet the secrets rule", async () => {
    for (const c of ["cat .en?", "cat .e*", "cat .[e]nv", "head -1 .[!.]*", "cat < .en?"]) {
      await asked(c, /secrets file/);
    }
  });
  test("a glob matching a link to outside is outside", async () => {
    await asked("cat *.txt", /outside/);
  });
  test("a file named like an option that a pattern matches makes the command unknown", async () => {
    // Real bash: with a file `-R` beside a link out, `grep KEY *` ran `grep KEY -R ...` and printed
    // the file outside through the link.
    const own = sandbox();
    mkdirSync(join(own.cwd, "opt"));
    writeFileSync(join(own.cwd, "opt", "-R"), "");
    writeFileSync(join(own.cwd, "opt", "a.txt"), "");
    const decided = async (command: string) => {
      const bash = await analyzeBash(command);
      const request = buildRequest({ tool: "Bash", input: { command }, cwd: own.cwd, home: own.home, bash });
      return decide(request, own.load().policy);
    };
    for (const command of ["cd opt && grep KEY *", "grep KEY opt/*"]) {
      const d = await decided(command);
      expect(d.decision, command).toBe("ask");
      expect(d.reason, command).toContain("would reach the command as an option");
    }
    expect((await decided("cd opt && cat a*")).decision).toBe("allow");
  });
  test("bash's own matching: no dotfiles for *, no . and .. for .*", () => {
    expect(patternMatcher("*")(".env")).toBe(false);
    expect(patternMatcher(".*")("..")).toBe(false);
    expect(patternMatcher(".*")(".env")).toBe(true);
    expect(patternMatcher("[!a]*")("b")).toBe(true);
    expect(patternMatcher("[[:upper:]]*")("Makefile")).toBe(true);
    expect(expandPattern(join(box.cwd, "*.txt"))?.sort()).toEqual([
      join(box.cwd, "a.txt"),
      join(box.cwd, "s.txt"),
    ]);
    expect(expandPattern(join(box.cwd, "*.nothing"))).toEqual([]);
  });
});

describe("tilde forms and the shell's directories", () => {
  test("~+ is where the command runs, ~- and cd - are unknown at the start", async () => {
    await allowed("cat ~+/a.txt");
    await asked("cat ~-/a.txt", /location is unknown/);
    await asked("cd -; cat a.txt", /location is unknown/);
  });
  test("~user is that user's home; an unknown user is unknown", async () => {
    await asked("cat ~root/.bashrc", /\/root\/\.bashrc, outside/);
    await asked("cat ~no-such-user-here/x", /no user no-such-user-here/);
    expect(resolvePath("~root/x", { cwd: box.cwd, home: box.home, shell: true }).path).toBe("/root/x");
    // The file tools take `~user` as a file name, as they open it.
    expect(resolvePath("~root/x", { cwd: box.cwd, home: box.home }).path).toBe(join(box.cwd, "~root/x"));
  });
  test("cd earlier in the line, and a cd that may fail", async () => {
    await asked("cd / && cat etc/hostname", /outside the workspace/);
    expect((await analyzeBash("cd / && cat etc/hostname")).paths.map((p) => p.path)).toContain(
      "/etc/hostname",
    );
    await asked("cd sub && cat ../../outside/secret", /outside/);
    // If `cd nope` fails the shell stays where it was and ../x is above the workspace.
    await asked("cd nope/deeper; cat ../../x", /outside the workspace/);
    await asked("find -- " + outside + " -name secret", /outside/);
  });
});
