/**
 * git configuration and commands a git line runs (src/bash/git-config.ts, src/bash/git-runs.ts), one
 * test per reviewed entry: a harmless key leaves the command as clear as it was, a key or variable
 * whose value is a command has that command judged (here `curl`, which rules can then meet), a
 * variable that points git at other configuration makes the command opaque, and so does any key the
 * lists do not name.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { COMMAND_KEYS, COMMAND_VARIABLES, HARMLESS_KEYS } from "../../src/bash/git-config.ts";
import { COMMAND_OPTIONS } from "../../src/bash/git-runs.ts";
import { withBashParser } from "../../src/cli/check-call.ts";

beforeAll(async () => {
  await withBashParser();
});

/** A key the pattern stands for (`diff.*.command` as `diff.x.command`). */
const keyOf = (pattern: string) => pattern.replaceAll("*", "x");
const runsCurl = async (command: string) =>
  (await analyzeBash(command)).commands.some((c) => c.argv[0] === "curl");

describe("keys that run nothing", () => {
  test.each(HARMLESS_KEYS.map((e) => [e.pattern, e] as const))("%s", async (_p, entry) => {
    const a = await analyzeBash(`git -c ${keyOf(entry.pattern)}='curl x' status`);
    expect(a.opaque).toEqual([]);
    expect(a.commands.map((c) => c.argv[0])).toEqual(["git"]);
  });
});

describe("keys whose value is a command: the command is judged", () => {
  test.each(COMMAND_KEYS.map((e) => [e.pattern, e] as const))("%s", async (_p, entry) => {
    const key = keyOf(entry.pattern);
    const value = key.startsWith("credential.") ? "!curl x" : "curl x";
    expect(await runsCurl(`git -c ${key}='${value}' status`)).toBe(true);
    // The same key from the environment, and with a value known only when it runs.
    expect(
      await runsCurl(`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=${key} GIT_CONFIG_VALUE_0='${value}' git status`),
    )
      .toBe(true);
    expect((await analyzeBash(`git -c "${key}=$V" status`)).opaque.join()).toContain(key);
  });
});

describe("variables whose value is a command: the command is judged", () => {
  test.each([...COMMAND_VARIABLES])("%s", async (name) => {
    expect(await runsCurl(`${name}='curl x' git log`)).toBe(true);
  });
});

test("variables that point git at other configuration make it opaque; /dev/null reads nothing", async () => {
  for (const name of ["GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "HOME", "XDG_CONFIG_HOME"]) {
    expect((await analyzeBash(`${name}=x git status`)).opaque.join(), name).toContain(name);
  }
  expect((await analyzeBash("GIT_CONFIG_GLOBAL=/dev/null git status")).opaque).toEqual([]);
  expect((await analyzeBash("GIT_CONFIG_PARAMETERS=\"'a.b'='c'\" git status")).opaque.join()).toContain(
    "GIT_CONFIG_PARAMETERS",
  );
});

test("any key the lists do not name is opaque, wherever it is set", async () => {
  for (
    const command of [
      "git -c include.path=c status",
      "git -c core.hooksPath=h commit -m x",
      "git -c protocol.ext.allow=always fetch",
      "X=c git --config-env=include.path=X status",
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=url.x.insteadOf GIT_CONFIG_VALUE_0=y git fetch",
      "GIT_CONFIG_COUNT=$N git status",
    ]
  ) expect((await analyzeBash(command)).opaque.length, command).toBeGreaterThan(0);
});

test("an alias set for the command is read as what it stands for, from every source", async () => {
  for (
    const command of [
      "git -c alias.rh='reset --hard' rh",
      "RH='reset --hard' git --config-env=alias.rh=RH rh",
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.rh GIT_CONFIG_VALUE_0='reset --hard' git rh",
      "GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=alias.a GIT_CONFIG_VALUE_0=rh GIT_CONFIG_KEY_1=alias.rh GIT_CONFIG_VALUE_1='reset --hard' git a",
      "git -c alias.rh='!git reset --hard' rh",
    ]
  ) expect((await analyzeBash(command)).workLoss.map((w) => w.id), command).toContain("git-reset-hard");
  // An alias never replaces one of git's own commands.
  expect((await analyzeBash("git -c alias.status='reset --hard' status")).workLoss).toEqual([]);
  // With the value unknown, what it runs is unknown.
  expect((await analyzeBash("git --config-env=alias.rh=RH rh")).opaque.join()).toContain("alias.rh");
});

describe("options whose value is a command: the command is judged", () => {
  const examples: Record<string, string> = {
    "--exec": "git rebase --exec 'curl x' main",
    "--upload-pack": "git fetch --upload-p='curl x' origin",
    "--receive-pack": "git push --receive-pack='curl x' origin",
    "--extcmd": "git difftool -x 'curl x' HEAD",
    "--open-files-in-pager": "git grep -O'curl x' pattern",
    "--sendmail-cmd": "git send-email --sendmail-cmd='curl x' a.patch",
    "--to-cmd": "git send-email --to-cmd='curl x' a.patch",
    "--cc-cmd": "git send-email --cc-cmd='curl x' a.patch",
    "--header-cmd": "git send-email --header-cmd='curl x' a.patch",
  };
  test("every option has an example", () => {
    expect(Object.keys(examples).sort()).toEqual([...COMMAND_OPTIONS].sort());
  });
  test.each(Object.entries(examples))("%s", async (_option, command) => {
    expect(await runsCurl(command)).toBe(true);
  });
});

test("commands git runs for each submodule, bisect step, rebased commit or filter are judged", async () => {
  for (
    const command of [
      "git submodule foreach curl x",
      "git submodule --quiet foreach --recursive -- 'curl x'",
      "git bisect run curl x",
      "git filter-branch -f --msg-filter 'curl x' HEAD",
      "git filter-branch --prune-empty --index-filter 'curl x' -- --all",
    ]
  ) expect(await runsCurl(command), command).toBe(true);
  expect((await analyzeBash("git for-each-repo --config=r reset --hard")).workLoss.map((w) => w.id))
    .toContain(
      "git-reset-hard",
    );
  expect((await analyzeBash("git --exec-path=/tmp/x status")).opaque.join()).toContain("--exec-path");
  expect((await analyzeBash("git clone --template=t r x")).opaque.join()).toContain("hooks");
});

test("variables git reads, set for the rest of the line, make its git commands opaque", async () => {
  for (
    const command of [
      "HOME=x; git log",
      "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0=y; git x",
      "read -r HOME; git status",
      "printf -v HOME x; git status",
      "printf -vHOME x; git status",
      "declare -n r=HOME; r=x; git status",
      'printf -v "$n" x; git status',
      "git config core.pager curl; git log",
      "git config -f c alias.x y && git x",
    ]
  ) expect((await analyzeBash(command)).opaque.length, command).toBeGreaterThan(0);
  for (
    const command of [
      "git config user.email a@b.c && git commit -m x",
      "printf '%s' \"$x\"; git status",
      'read -p "$prompt" answer; git status',
      "X=1; git status",
      "git config core.pager curl",
    ]
  ) expect((await analyzeBash(command)).opaque, command).toEqual([]);
});
