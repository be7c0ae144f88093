/**
 * A security finding is about what a command would reach, not about the command: a repository that
 * is not the workspace's own, a toolchain file that picks the program, a secret it prints. An allow
 * rule (`Bash(git status:*)`, `Bash(cargo -V)`, `Bash(echo:*)`, a session grant) names the command,
 * so it approves none of them: they ask a person. Verified in real bash 5.2 and git 2.39 with a
 * harmless payload (`touch` of a marker): with those rules allowed, `git -C evil status` ran
 * evil's `core.fsmonitor`, `cargo -V` under `rust-toolchain.toml` ran the planted cargo,
 * `echo $GITHUB_TOKEN` and `jq -n env` printed the token; `git status` in a workspace with no
 * `.git` of its own ran the enclosing repository's fsmonitor, and in one whose `.git/config` has
 * `include.path = ../tools/git.conf` it ran the fsmonitor written to that file.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { decide } from "../../src/policy/decide.ts";
import { untrustedRepository } from "../../src/policy/git-repository.ts";
import { includedFiles } from "../../src/sandbox/git-includes.ts";
import { buildRequest } from "../../src/policy/request.ts";
import { grantForSession } from "../../src/policy/session-grants.ts";
import type { Policy } from "../../src/policy/policy.ts";
import type { Decision } from "../../src/policy/types.ts";
import type { PermissionMode } from "../../src/tool/types.ts";
import { realPathOfNearestExisting } from "../../src/tool/paths.ts";
import { type Sandbox, sandbox } from "./helpers.ts";

/** A repository directory (`HEAD`, `objects/`, `refs/`) whose config holds `config`. */
function repository(dir: string, config = "[core]\n\tfsmonitor = touch /tmp/marker\n"): void {
  mkdirSync(join(dir, "objects"), { recursive: true });
  mkdirSync(join(dir, "refs"), { recursive: true });
  writeFileSync(join(dir, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(dir, "config"), config);
}

async function decideIn(
  box: Sandbox,
  command: string,
  policy: Policy,
  mode: PermissionMode = "default",
  cwd = box.cwd,
): Promise<Decision> {
  const bash = await analyzeBash(command);
  const request = buildRequest({ tool: "Bash", input: { command }, cwd, home: box.home, bash, mode });
  return decide(request, policy);
}

let box: Sandbox;
beforeAll(() => {
  box = sandbox();
  repository(join(box.cwd, ".git"), "[core]\n\tbare = false\n");
  repository(join(box.cwd, "evil"));
  writeFileSync(join(box.cwd, "rust-toolchain.toml"), '[toolchain]\npath = "/tmp/t"\n');
});

/** Each finding with the allow rules users commonly have that match the command. */
const FINDINGS: { command: string; allows: string[]; why: RegExp }[] = [
  {
    command: "git -C evil status",
    allows: ["Bash(git status:*)", "Bash(git:*)"],
    why: /not the workspace's own/,
  },
  { command: "git -C ev?l status", allows: ["Bash(git:*)"], why: /not the workspace's own/ },
  {
    command: "cd evil && git status",
    allows: ["Bash(git status:*)", "Bash(cd:*)"],
    why: /not the workspace's own/,
  },
  {
    command: "cargo -V",
    allows: ["Bash(cargo -V)", "Bash(cargo:*)"],
    why: /toolchain .*rust-toolchain\.toml/,
  },
  { command: "command cargo -V", allows: ["Bash(cargo -V)"], why: /toolchain/ },
  { command: "timeout 5 rustc -V", allows: ["Bash(rustc:*)"], why: /toolchain/ },
  {
    command: "cd ~nosuchuser1 && cargo -V",
    allows: ["Bash(cd:*)", "Bash(cargo:*)"],
    why: /toolchain a file in a directory known only at run time/,
  },
  {
    command: "git -C ~nosuchuser1 status",
    allows: ["Bash(git:*)"],
    why: /repository whose location is unknown/,
  },
  { command: "echo $GITHUB_TOKEN", allows: ["Bash(echo:*)"], why: /looks like a secret/ },
  {
    command: "printf '%s' \"$AWS_SECRET_ACCESS_KEY\"",
    allows: ["Bash(printf:*)"],
    why: /looks like a secret/,
  },
  { command: "jq -n env", allows: ["Bash(jq:*)"], why: /reads the environment/ },
  { command: "jq -n '$ENV.GITHUB_TOKEN'", allows: ["Bash(jq:*)"], why: /reads the environment/ },
  { command: "awk 'BEGIN{print ENVIRON[\"T\"]}'", allows: ["Bash(awk:*)"], why: /reads the environment/ },
  { command: "printenv GITHUB_TOKEN", allows: ["Bash(printenv:*)"], why: /looks like a secret/ },
  { command: "ps e", allows: ["Bash(ps:*)"], why: /environment/ },
  { command: "env", allows: ["Bash(env)", "Bash(env:*)"], why: /whole environment/ },
  { command: "cat <<< $GITHUB_TOKEN", allows: ["Bash(cat:*)"], why: /looks like a secret/ },
  { command: "kubectl get secret db -o yaml", allows: ["Bash(kubectl get:*)"], why: /Secrets/ },
];

describe("no allow rule approves a security finding", () => {
  for (const { command, allows, why } of FINDINGS) {
    test(`${command} with ${allows.join(", ")}`, async () => {
      const policy = box.load({ cliRules: { allow: allows } }).policy;
      const d = await decideIn(box, command, policy);
      expect(d.decision, d.reason).toBe("ask");
      expect(d.hardAsk).toBe(true);
      expect(d.reason).toMatch(why);
      expect(d.reason).toContain("allow rules cannot approve this command");
    });
  }

  test("an exact rule granted for the session does not either", async () => {
    const policy = grantForSession(box.load().policy, box.stateDir, box.cwd, "Bash(git -C evil status)");
    expect((await decideIn(box, "git -C evil status", policy)).decision).toBe("ask");
    // The same grant still approves what it names where nothing was found.
    const granted = grantForSession(policy, box.stateDir, box.cwd, "Bash(git log --oneline)");
    expect((await decideIn(box, "git log --oneline", granted)).reason).toMatch(/allowed by|read-only/);
  });

  test("dontAsk denies it; a deny rule still wins; bypassPermissions is the person's own answer", async () => {
    const policy = box.load({ cliRules: { allow: ["Bash(echo:*)"] } }).policy;
    expect((await decideIn(box, "echo $GITHUB_TOKEN", policy, "dontAsk")).decision).toBe("deny");
    expect((await decideIn(box, "echo $GITHUB_TOKEN", policy, "bypassPermissions")).decision).toBe("allow");
    const denied = box.load({ cliRules: { allow: ["Bash(jq:*)"], deny: ["Bash(jq -n:*)"] } }).policy;
    const d = await decideIn(box, "jq -n env", denied);
    expect(d.decision).toBe("deny");
    expect(d.reason).toContain("Bash(jq -n:*)");
  });

  test("the same rules still allow the commands when nothing is found", async () => {
    const policy = box.load({
      cliRules: { allow: ["Bash(git status:*)", "Bash(echo:*)", "Bash(jq:*)", "Bash(cargo:*)"] },
    }).policy;
    for (const command of ["git status", "echo $HOME hi", "jq -n '.env'", "command -v cargo"]) {
      const d = await decideIn(box, command, policy);
      expect(d.decision, `${command}: ${d.reason}`).toBe("allow");
    }
  });
});

describe("the repository git finds above a workspace with no .git of its own", () => {
  let parent: string;
  let inner: string;
  beforeAll(() => {
    parent = realPathOfNearestExisting(box.root);
    repository(join(parent, ".git"));
    inner = join(parent, "plain-ws");
    mkdirSync(join(inner, "src"), { recursive: true });
  });

  test("is outside the workspace, so not its own", () => {
    for (const start of [inner, join(inner, "src")]) {
      expect(untrustedRepository(start, [inner])).toContain(join(parent, ".git"));
    }
  });

  test("git status there asks", async () => {
    const d = await decideIn(box, "git status", box.load().policy, "default", inner);
    expect(d.decision).toBe("ask");
    expect(d.reason).toContain(join(parent, ".git"));
  });
});

describe("the workspace's own repository config, unless it includes a file commands may write", () => {
  test("include.path and includeIf paths are read as git resolves them", () => {
    const config = [
      "[core]",
      "\tpath = not-an-include",
      "[include]",
      "\tpath = ../tools/git.conf",
      '[includeIf "gitdir:**"]',
      '\tPath = "/abs/x.conf"',
      "[Include]",
      "\tpath = ~/mine.conf",
    ].join("\n");
    expect(includedFiles(config, "/w/.git")).toEqual(["/w/tools/git.conf", "/abs/x.conf"]);
  });

  for (
    const [name, config, trusted] of [
      ["no include", "[core]\n\tfsmonitor = true\n", true],
      ["an include of a workspace file", "[include]\n\tpath = ../tools/git.conf\n", false],
      ["an includeIf of a workspace file", '[includeIf "onbranch:main"]\n\tpath = "../x.conf"\n', false],
      ["an include inside .git (protected)", "[include]\n\tpath = local.conf\n", true],
      ["an include of the user's own file", "[include]\n\tpath = ~/.gitconfig-work\n", true],
    ] as const
  ) {
    test(`${name}: ${trusted ? "trusted" : "asks"}`, async () => {
      const own = sandbox();
      repository(join(own.cwd, ".git"), config);
      const d = await decideIn(own, "git status", own.load({ cliRules: { allow: ["Bash(git:*)"] } }).policy);
      expect(d.decision, d.reason).toBe(trusted ? "allow" : "ask");
      if (!trusted) expect(d.reason).toMatch(/includes and commands may write/);
    });
  }
  // A program in the workspace's own config asks too (repo-programs.ts; test/policy/repo-programs.test.ts).
  test("no include, but core.fsmonitor names a program: asks", async () => {
    const own = sandbox();
    repository(join(own.cwd, ".git"), "[core]\n\tfsmonitor = watchman-hook\n");
    const d = await decideIn(own, "git status", own.load({ cliRules: { allow: ["Bash(git:*)"] } }).policy);
    expect(d.decision, d.reason).toBe("ask");
    expect(d.reason).toContain("core.fsmonitor = watchman-hook");
  });
});
