/**
 * Commands that print git's configuration ask when it holds a credential. Verified with git 2.39:
 * `git remote -v` and `git remote get-url tok` printed `https://user:ghp_FAKETOKEN@github.com/x/y`,
 * `git config --global --list` and `git config --get http.extraheader` printed the bearer token
 * kept in `~/.gitconfig`, `git remote -v` printed a URL that an `insteadOf` with a token rewrote.
 * Real git reads a scratch home and repository; the real home is never read.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { printedConfig } from "../../src/bash/git-printed-config.ts";
import { resolveGit } from "../../src/bash/git.ts";
import { credentialIn, credentialUrl } from "../../src/policy/git-credentials.ts";
import type { Decision } from "../../src/policy/types.ts";
import { bashDecision, type Sandbox, sandbox } from "./helpers.ts";

let clean: Sandbox;
let tokens: Sandbox;

function git(cwd: string, ...args: string[]): void {
  const run = spawnSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, HOME: cwd } });
  if (run.status !== 0) throw new Error(run.stderr);
}

beforeAll(() => {
  clean = sandbox();
  git(clean.cwd, "init", "-q");
  git(clean.cwd, "remote", "add", "origin", "https://github.com/x/y.git");
  git(clean.cwd, "remote", "add", "azure", "https://org@dev.azure.com/org/p/_git/r");
  git(clean.cwd, "remote", "add", "ssh", "git@github.com:x/y.git");
  tokens = sandbox();
  git(tokens.cwd, "init", "-q");
  git(tokens.cwd, "remote", "add", "tok", "https://user:ghp_FAKETOKEN@github.com/x/y");
  tokens.write(join(tokens.home, ".gitconfig"), "[http]\n\textraheader = AUTHORIZATION: bearer FAKE\n");
});

const check = (box: Sandbox, command: string): Promise<Decision> =>
  bashDecision(box, command, { sandboxed: false });

describe("commands that print configuration holding a credential ask", () => {
  test("a token in a remote URL, an extraheader in the user's config", async () => {
    for (
      const command of [
        "git remote -v",
        "git remote --verbose",
        "git remote get-url tok",
        "git remote show -n tok",
        "git config --list",
        "git config --global --list",
        "git config -l",
        "git config --get http.extraheader",
        "git config http.extraHeader",
        "git config --get-regexp url",
        "git var -l",
      ]
    ) {
      const d = await check(tokens, command);
      expect(d.decision, `${command}: ${d.reason}`).toBe("ask");
      expect(d.reason).toMatch(/holding a credential \((?:remote\.tok\.url|http\.extraheader) from file:/);
      expect(d.reason).not.toContain("FAKE");
    }
  });
  test("keys that hold none, and repositories without credentials, still run", async () => {
    for (
      const command of ["git config user.name", "git config --get core.bare", "git remote", "git status"]
    ) {
      const d = await check(tokens, command);
      expect(d.decision, `${command}: ${d.reason}`).toBe("allow");
    }
    for (const command of ["git remote -v", "git remote get-url origin", "git config --list", "git var -l"]) {
      const d = await check(clean, command);
      expect(d.decision, `${command}: ${d.reason}`).toBe("allow");
    }
  });
  test("an insteadOf that puts a token into every URL asks", async () => {
    const box = sandbox();
    git(box.cwd, "init", "-q");
    git(box.cwd, "remote", "add", "origin", "https://github.com/x/y.git");
    box.write(
      join(box.home, ".gitconfig"),
      '[url "https://x-access-token:FAKE@github.com/"]\n\tinsteadOf = https://github.com/\n',
    );
    const d = await check(box, "git remote -v");
    expect(d.decision, d.reason).toBe("ask");
    expect(d.reason).toContain("url.https://…@github.com/.insteadof");
  });
  test("configuration that cannot be read may hold one", async () => {
    const d = await check(clean, "git config --file missing.conf --list");
    expect(d.decision).toBe("ask");
    expect(d.reason).toMatch(/could not be read/);
  });
});

describe("what counts as printed, and as a credential", () => {
  const printed = (line: string) => printedConfig(resolveGit(line.split(" ").slice(1)), 0);
  test("the forms that print configuration, and the keys they print", () => {
    expect(printed("git remote")).toBeUndefined();
    expect(printed("git remote add x https://h/x")).toBeUndefined();
    expect(printed("git remote -v")?.keys).toContain("remote.*.url");
    expect(printed("git config user.Name")?.keys).toEqual(["user.name"]);
    expect(printed("git config --get remote.origin.url")?.keys).toEqual(["remote.origin.url"]);
    expect(printed("git config get user.name")?.keys).toEqual(["user.name"]);
    expect(printed("git config --list")?.keys).toEqual(["*"]);
    expect(printed("git config --get-regexp ^http")?.keys).toEqual(["*"]);
    expect(printed("git config -f x.conf --list")?.scope).toEqual(["--file", "x.conf"]);
    expect(printed("git config --blob=HEAD:c -l")?.scope).toEqual(["--blob", "HEAD:c"]);
    expect(printed("git config user.name x")).toBeUndefined();
    expect(printed("git config --global user.name x")).toBeUndefined();
    expect(printed("git config --global --show-origin user.name")?.keys).toEqual(["user.name"]);
    expect(printed("git config --unset http.extraheader")).toBeUndefined();
    expect(printed("git config set user.name x")).toBeUndefined();
    expect(printed("git config get user.name")?.keys).toEqual(["user.name"]);
    expect(printed("git config --get-all a.b x")?.keys).toEqual(["*"]);
    expect(printed("git var GIT_EDITOR")).toBeUndefined();
    expect(printed("git status")).toBeUndefined();
  });
  test("URLs with a password or a token as the user are credentials; user names are not", () => {
    expect(credentialUrl("https://user:pw@github.com/x")).toBe(true);
    expect(credentialUrl("https://ghp_abc@github.com/x")).toBe(true);
    expect(credentialUrl("https://glpat-abc@gitlab.com/x")).toBe(true);
    expect(credentialUrl("https://a1b2c3d4e5f6a7b8c9d0e1f2@host/x")).toBe(true);
    expect(credentialUrl("https://org@dev.azure.com/org/p")).toBe(false);
    expect(credentialUrl("ssh://git@github.com/x")).toBe(false);
    expect(credentialUrl("git@github.com:x/y.git")).toBe(false);
    const entry = (key: string, value: string) => ({ key, value, origin: "file:c" });
    expect(credentialIn([entry("github.token", "abc")], ["*"])).toBe("github.token from file:c");
    expect(credentialIn([entry("github.token", "abc")], ["user.name"])).toBeUndefined();
    expect(credentialIn([entry("user.name", "ghp")], ["*"])).toBeUndefined();
  });
});
