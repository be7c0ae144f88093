/**
 * Programs a command runs to reach another host (src/bash/helper-programs.ts, and the remotes by
 * name looked up in src/policy/git-facts.ts): `Bash(ssh:*)` holds for git over ssh URLs, remotes
 * whose configured URL is ssh, scp, sftp and rsync, on the host and in the sandbox. Each hostile
 * line is also run for real with `ssh` traced (strace) or stubbed, to show it does start ssh.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { urlHelper } from "../../src/bash/helper-programs.ts";
import { withBashParser } from "../../src/cli/check-call.ts";
import { gitTestEnv } from "../helpers/git-env.ts";
import { checkedBash, sandbox } from "../policy/helpers.ts";

const box = sandbox();
const root = mkdtempSync(join(tmpdir(), "toolrt-helpers-"));
/** A repository with an ssh remote (sshr), a local one (origin) and an insteadOf that maps gh: to ssh. */
const work = join(root, "work");
beforeAll(async () => {
  await withBashParser();
  const script = `set -e
git init -q --bare r.git
git init -q -b main work && cd work && git commit -q --allow-empty -m init
git remote add origin ../r.git
git remote add sshr ssh://h/x
git remote add short gh:x
git config url.ssh://h/.insteadOf gh:
git remote add pub ../r.git && git remote set-url --push pub ssh://h/x
`;
  const made = spawnSync("bash", ["-c", script], { cwd: root, env: gitTestEnv(), encoding: "utf8" });
  if (made.status !== 0) throw new Error(made.stderr);
  // Submodules: one by an ssh URL, one relative to a superproject whose remote is ssh.
  const subs = `set -e
git init -q -b main withsub && cd withsub && git commit -q --allow-empty -m init
git config -f .gitmodules submodule.lib.path lib && git config -f .gitmodules submodule.lib.url h:lib
git init -q -b main rel && cd rel && git commit -q --allow-empty -m init && git remote add origin ssh://h/top
git config -f .gitmodules submodule.x.path x && git config -f .gitmodules submodule.x.url ../x.git
`;
  const made2 = spawnSync("bash", ["-c", subs], { cwd: root, env: gitTestEnv(), encoding: "utf8" });
  if (made2.status !== 0) throw new Error(made2.stderr);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function decided(
  command: string,
  rules: { ask?: string[]; deny?: string[] },
  sandboxed: boolean,
  cwd = work,
) {
  return await checkedBash(box, command, { sandboxed, cliRules: rules, cwd });
}

describe("how git reaches a URL", () => {
  test.each([
    ["h:x", "ssh h git-upload-pack x"],
    ["u@h:x/y.git", "ssh h git-upload-pack x/y.git"],
    ["[::1]:x", "ssh ::1 git-upload-pack x"],
    ["ssh://h/x", "ssh h git-upload-pack /x"],
    ["ssh://u@h:2222/x", "ssh h git-upload-pack /x"],
    ["git+ssh://h/x", "ssh h git-upload-pack /x"],
    ["SSH://h/x", "ssh h git-upload-pack /x"],
    ["h:", "ssh h git-upload-pack ''"],
  ])("%s runs ssh", (url, helper) => {
    expect(urlHelper(url, "git-upload-pack")).toBe(helper);
  });
  test.each([
    "https://h/x",
    "git://h/x",
    "file:///x",
    "./a:b",
    "a/b:c",
    "/srv/r.git",
    "ext::curl x",
    "r.git",
  ])(
    "%s does not",
    (url) => expect(urlHelper(url, "git-upload-pack")).toBeUndefined(),
  );
});

/** The red team's lines first, then spellings and relatives. */
const RUN_SSH = [
  "git ls-remote h:x",
  "git fetch sshr",
  "scp h:x .",
  "sftp h",
  "git archive --remote=h:x HEAD",
  "git clone h:x y",
  "git clone -q ssh://u@h:22/x y",
  "git clone --depth 1 -- git+ssh://h/x",
  "git -C . fetch sshr main",
  "git fetch short",
  "git fetch --all",
  "git pull sshr main",
  "git push sshr main",
  "git push pub main",
  "git send-pack h:x main",
  "git archive --remote h:x HEAD",
  "scp -P 2 a.txt u@h:/tmp",
  "scp -r h:/etc/x .",
  "sftp -P 2 u@h",
  "sftp sftp://h/x",
  "rsync -a h:x .",
  "rsync -avz ./a u@h:/b",
  "rsync -avze 'ssh -p 2' h:x .",
  "timeout 5 git fetch sshr",
];
const NO_SSH = [
  "git fetch origin",
  "git fetch",
  "git ls-remote https://example.com/r.git",
  "git clone ../r.git y",
  "git clone https://example.com/r.git",
  "scp a.txt b.txt",
  "rsync -a ./a ./b",
  "rsync -a h::module .",
  "git archive HEAD",
  "git fetch pub",
];

describe("Bash(ssh:*) holds for the helper", () => {
  test.each(RUN_SSH)("asks in the sandbox, asks on the host, denied by a deny: %s", async (command) => {
    const sandboxed = await decided(command, { ask: ["Bash(ssh:*)"] }, true);
    expect(sandboxed.decision, sandboxed.reason).toBe("ask");
    expect(sandboxed.reason).toContain("Bash(ssh:*)");
    expect((await decided(command, { ask: ["Bash(ssh:*)"] }, false)).decision).toBe("ask");
    expect((await decided(command, { deny: ["Bash(ssh:*)"] }, false)).decision).toBe("deny");
  });
  test.each(NO_SSH)("not met: %s", async (command) => {
    const sandboxed = await decided(command, { deny: ["Bash(ssh:*)"] }, true);
    expect(sandboxed.decision, sandboxed.reason).toBe("allow");
  });
  test("with no rule the sandbox still runs them (no network there)", async () => {
    for (const command of RUN_SSH.slice(0, 6)) {
      expect((await decided(command, {}, true)).decision, command).toBe("allow");
    }
  });
  test("the analysis names the helper with the service git runs there", async () => {
    const helpers = async (command: string) =>
      (await analyzeBash(command)).commands.flatMap((c) => c.helpers ?? []);
    expect(await helpers("git push h:x main")).toEqual(["ssh h git-receive-pack x"]);
    expect(await helpers("git archive --remote=h:x HEAD")).toEqual(["ssh h git-upload-archive x"]);
    expect(await helpers("scp -S ./myssh h:x .")).toEqual(["./myssh h"]);
    expect(await helpers("sftp -D /usr/lib/sftp-server")).toEqual([]);
    // -X takes a value (an sftp option), so the host is the word after it.
    expect(await helpers("sftp -X nrequests=8 h")).toEqual(["ssh h"]);
    // fetch looks up its remote, and the submodules it may fetch on demand.
    expect((await analyzeBash("git fetch sshr")).remotes).toMatchObject([
      { name: "submodules", service: "git-upload-pack" },
      { name: "sshr", service: "git-upload-pack" },
    ]);
  });
});

describe("submodules fetched from their configured URLs", () => {
  test("an ssh URL in .gitmodules: update, fetch and pull run ssh", async () => {
    const repo = join(root, "withsub");
    for (const command of ["git submodule update --init", "git submodule update", "git fetch", "git pull"]) {
      expect((await decided(command, { ask: ["Bash(ssh:*)"] }, true, repo)).decision, command).toBe("ask");
    }
    expect((await decided("git submodule status", { ask: ["Bash(ssh:*)"] }, true, repo)).decision).toBe(
      "allow",
    );
  });
  test("a relative URL is reached through the superproject's remote", async () => {
    const repo = join(root, "withsub", "rel");
    expect((await decided("git submodule update --init", { ask: ["Bash(ssh:*)"] }, true, repo)).decision)
      .toBe(
        "ask",
      );
  });
  test("submodule add names its URL", async () => {
    expect((await decided("git submodule add h:lib lib", { ask: ["Bash(ssh:*)"] }, true)).decision).toBe(
      "ask",
    );
    expect((await decided("git submodule add ../r.git lib", { ask: ["Bash(ssh:*)"] }, true)).decision).toBe(
      "allow",
    );
  });
});

const strace = Bun.which("strace");
describe.skipIf(!strace)("each really starts ssh (strace, no network)", () => {
  test.each(RUN_SSH.filter((c) => !c.startsWith("rsync") || Bun.which("rsync")).slice(0, 20))(
    "%s",
    (command) => {
      const log = join(root, `trace-${Math.random().toString(36).slice(2)}`);
      mkdirSync(join(root, "bin"), { recursive: true });
      writeFileSync(join(root, "bin", "ssh"), "#!/bin/sh\nexit 255\n");
      chmodSync(join(root, "bin", "ssh"), 0o755);
      spawnSync(strace!, ["-f", "-qq", "-e", "trace=execve", "-o", log, "bash", "-c", command], {
        cwd: work,
        env: gitTestEnv({ PATH: `${join(root, "bin")}:/usr/bin:/bin`, GIT_TERMINAL_PROMPT: "0" }),
        timeout: 20_000,
        input: "",
      });
      expect(readFileSync(log, "utf8")).toMatch(/execve\("[^"]*\/ssh"/);
    },
    30_000,
  );
});
