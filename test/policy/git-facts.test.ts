/**
 * What the policy looks up about git when deciding: the gitlinks of an index in each of its
 * versions (src/policy/git-submodules.ts), the files the history holds
 * (src/policy/git-history.ts), and what it does when git cannot tell: the history counts as
 * holding anything and the name as anything git may run.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { withBashParser } from "../../src/cli/check-call.ts";
import { decide } from "../../src/policy/decide.ts";
import { historyPaths } from "../../src/policy/git-history.ts";
import { gitlinks } from "../../src/policy/git-submodules.ts";
import { loadPolicy } from "../../src/policy/load.ts";
import { buildRequest } from "../../src/policy/request.ts";
import { sandbox } from "./helpers.ts";

const GIT = spawnSync("git", ["--version"]).status === 0;
const box = sandbox();
const env = {
  HOME: box.home,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  PATH: process.env.PATH!,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};
const sh = (cwd: string, script: string) => {
  const run = spawnSync("bash", ["-c", `set -e\n${script}`], { cwd, env, encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout;
};

beforeAll(async () => {
  await withBashParser();
});

describe.skipIf(!GIT)("gitlinks of a real index", () => {
  test.each([2, 3, 4])("index version %i", (version) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrt-index-"));
    sh(
      dir,
      `git init -q -b main r && cd r && git config user.email t@example.com && git config user.name t
git init -q deep/lib && git -C deep/lib commit -q --allow-empty -m l
git init -q zz && git -C zz commit -q --allow-empty -m z
mkdir -p deep/lib2 && echo a > a.txt && echo b > deep/lib2/b.txt
git add a.txt deep deep/lib2 zz 2>/dev/null
${version === 3 ? "echo n > new.txt && git add -N new.txt" : ""}
git update-index --index-version ${version}`,
    );
    const index = readFileSync(join(dir, "r", ".git", "index"));
    expect(index.readUInt32BE(4)).toBe(version);
    expect(gitlinks(index)).toEqual(["deep/lib", "zz"]);
  });

  test("not an index: undefined, so the caller fails closed", () => {
    expect(gitlinks(Buffer.from("not an index at all"))).toBeUndefined();
  });
});

describe.skipIf(!GIT)("the history's files", () => {
  test("every path any commit, reflog entry or the index holds; none outside a repository", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolrt-history-"));
    sh(
      dir,
      `git init -q -b main r && cd r && git config user.email t@example.com && git config user.name t
mkdir conf && echo s > conf/.env && git add conf && git commit -qm a && git rm -q -r conf && git commit -qm b
echo i > staged.txt && git add staged.txt`,
    );
    const found = historyPaths(join(dir, "r"), "history");
    expect("paths" in found && found.paths.sort()).toEqual([
      join(dir, "r", "conf"),
      join(dir, "r", "conf/.env"),
      join(dir, "r", "staged.txt"),
    ]);
    expect(historyPaths(join(dir, "r"), "tracked")).toEqual({ paths: [join(dir, "r", "staged.txt")] });
    expect(historyPaths(dir, "history")).toEqual({ none: true });
  });
});

describe("when git cannot tell", () => {
  const policy = () => loadPolicy({ cwd: box.cwd, stateDir: box.stateDir, env: box.env }).policy;
  const request = async (command: string, options: Parameters<typeof buildRequest>[2]) =>
    buildRequest(
      { tool: "Bash", input: { command }, cwd: box.cwd, home: box.home, bash: await analyzeBash(command) },
      {},
      options,
    );

  test("a history that could not be listed counts as holding anything: git log -p asks", async () => {
    const r = await request("git log -p", { gitHistory: () => ({ unknown: "timed out" }) });
    const d = decide(r, policy());
    expect(d.decision).toBe("ask");
    expect(d.reason).toContain("timed out");
    const listed = await request("git log -p", {
      gitHistory: () => ({ paths: [join(box.cwd, "src/a.ts")] }),
    });
    expect(decide(listed, policy()).decision).toBe("allow");
  });

  test("a history holding a secrets file: the Read rule decides, and says which file", async () => {
    const r = await request("git show", { gitHistory: () => ({ paths: [join(box.cwd, "deploy/.env")] }) });
    const d = decide(r, policy());
    expect(d.decision).toBe("ask");
    expect(d.reason).toContain(`the git history holds ${join(box.cwd, "deploy/.env")}`);
    // Listing options print no content: no lookup, no ask.
    const stat = await request("git show --stat", { gitHistory: () => ({ paths: [join(box.cwd, ".env")] }) });
    expect(stat.historyReads).toBeUndefined();
  });

  test("a name that is not a git command, with the configuration unreadable, is opaque", async () => {
    const failing = () => {
      throw new Error("git is missing");
    };
    const r = await request("git frob", { gitAlias: failing });
    expect(r.bash!.opaque.join()).toContain("git is missing");
    const none = await request("git frob", { gitAlias: () => null });
    expect(none.bash!.opaque).toEqual([]);
    const own = await request("git status", { gitAlias: failing });
    expect(own.bash!.opaque).toEqual([]);
  });

  test("checkout of a word is work loss only when the word names a file", async () => {
    writeFileSync(join(box.cwd, "notes.txt"), "x");
    const file = await request("git checkout notes.txt", { gitAlias: () => null });
    expect(file.bash!.commands[0]!.workLoss).toEqual(["git-checkout-discard"]);
    const branch = await request("git checkout topic", { gitAlias: () => null });
    expect(branch.bash!.commands[0]!.workLoss ?? []).toEqual([]);
  });
});

describe.skipIf(!GIT)("a partial clone fetches missing objects on demand", () => {
  test("on the host, commands that read objects ask; a commit walk and status do not; the sandbox blocks the network itself", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolrt-partial-"));
    sh(
      dir,
      `git init -q -b main src && cd src && echo a > f.txt && git add f.txt && git commit -qm a
echo b > f.txt && git commit -qam b && git config uploadpack.allowFilter true && cd ..
git clone -q --filter=blob:none "file://$PWD/src" work`,
    );
    const cwd = join(dir, "work");
    const policy = loadPolicy({ cwd, stateDir: box.stateDir, env: box.env }).policy;
    const decision = async (command: string, sandboxed = false) => {
      const r = buildRequest(
        { tool: "Bash", input: { command }, cwd, home: box.home, bash: await analyzeBash(command) },
        {},
        { gitAlias: () => null },
      );
      const request = sandboxed
        ? { ...r, sandbox: { writable: [cwd], allowNet: [], asksForHosts: false, denyRead: [] } }
        : r;
      return decide(request, policy);
    };
    const show = await decision("git show HEAD~1:f.txt");
    expect(show.decision).toBe("ask");
    expect(show.reason).toContain("partial clone");
    expect((await decision("git diff HEAD~1")).decision).toBe("ask");
    expect((await decision("git log --oneline")).decision).toBe("allow");
    expect((await decision("git status")).decision).toBe("allow");
    expect((await decision("git show HEAD~1:f.txt", true)).decision).toBe("allow");
  });
});
