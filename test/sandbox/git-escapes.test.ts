/**
 * Every place git reads hooks or config from, attacked from inside the sandbox with a harmless
 * payload (`core.fsmonitor` or a hook that touches a marker file outside the workspace), then git
 * run on the host as a user would: the marker must not appear. And git keeps working inside.
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectSandbox } from "../../src/sandbox/detect.ts";
import { buildSandboxProfile } from "../../src/sandbox/profile.ts";
import { runWrapped } from "../../src/sandbox/run.ts";
import { wrapCommand } from "../../src/sandbox/wrap.ts";
import { gitTestEnv } from "../helpers/git-env.ts";

const availability = detectSandbox();
const usable = availability.available && availability.kind === "bwrap" && Bun.which("git") !== null;
if (!usable) console.warn("skipping git escape runs: needs bwrap and git");

const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-git-escapes-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const markers = join(dir, "markers");
mkdirSync(markers);

const gitEnv = gitTestEnv({ HOME: join(dir, "home") });

/** git on the host, as the user runs it after the agent's turn. */
function hostGit(cwd: string, ...args: string[]) {
  const r = Bun.spawnSync(["git", ...args], { cwd, env: gitEnv, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

function newRepo(name: string): string {
  const repo = join(dir, name);
  mkdirSync(repo, { recursive: true });
  hostGit(repo, "init", "-q");
  writeFileSync(join(repo, "file"), "1\n");
  hostGit(repo, "add", "file");
  hostGit(repo, "commit", "-q", "-m", "first");
  return repo;
}

async function sandboxed(workspace: string, script: string, cwd = workspace) {
  const wrapped = await wrapCommand(buildSandboxProfile({}, workspace), ["/bin/sh", "-c", script], {
    cwd,
    env: gitEnv,
  });
  return runWrapped(wrapped, ["ignore", "pipe", "pipe"]);
}

const marker = (name: string) => join(markers, name);
/** A payload that, if git ever runs it on the host, leaves the marker. */
const fsmonitor = (name: string) => `git config core.fsmonitor 'touch ${marker(name)}; false'`;

describe.skipIf(!usable)("git escapes", () => {
  test("git add, commit, checkout and branch keep working inside", async () => {
    const repo = newRepo("works");
    const r = await sandboxed(
      repo,
      "echo 2 > file && git add file && git commit -q -m second && git branch b && git checkout -q b && " +
        "git checkout -q - && git log --format=%s",
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("second\nfirst\n");
    expect(hostGit(repo, "log", "--format=%s").out).toBe("second\nfirst\n");
    expect(hostGit(repo, "branch", "--list", "b").out).toContain("b");
  });

  test(".git/config and .git/hooks stay read-only", async () => {
    const repo = newRepo("config");
    await sandboxed(repo, `${fsmonitor("config")}; echo 'touch ${marker("hook")}' > .git/hooks/post-commit`);
    hostGit(repo, "status");
    hostGit(repo, "commit", "-q", "--allow-empty", "-m", "x");
    expect(existsSync(marker("config"))).toBe(false);
    expect(existsSync(marker("hook"))).toBe(false);
  });

  test("files the repository's config includes stay read-only, and one created during the run is quarantined", async () => {
    // The usual shared-project setup: `git config include.path ../tools/git.conf`.
    const repo = newRepo("include");
    mkdirSync(join(repo, "tools"));
    writeFileSync(join(repo, "tools", "git.conf"), "[core]\n\tautocrlf = false\n");
    hostGit(repo, "config", "include.path", "../tools/git.conf");
    hostGit(repo, "config", "includeIf.onbranch:main.path", "../tools/later.conf");
    const r = await sandboxed(
      repo,
      `printf '[core]\\n\\tfsmonitor = touch ${marker("include")}; false\\n' > tools/git.conf; ` +
        `printf '[core]\\n\\tfsmonitor = touch ${marker("include-new")}; false\\n' > tools/later.conf; ` +
        "mv tools tools2; echo done",
    );
    expect(r.stdout).toBe("done\n");
    expect(r.stderr).toContain("Read-only file system");
    expect(r.stderr).toContain("Device or resource busy");
    expect(r.quarantined.map((q) => q.path)).toEqual([join(repo, "tools", "later.conf")]);
    expect(readFileSync(join(repo, "tools", "git.conf"), "utf8")).toBe("[core]\n\tautocrlf = false\n");
    hostGit(repo, "checkout", "-q", "-B", "main");
    hostGit(repo, "status");
    expect(existsSync(marker("include"))).toBe(false);
    expect(existsSync(marker("include-new"))).toBe(false);
  });

  test(".git/commondir written during the run is quarantined", async () => {
    const repo = newRepo("commondir");
    const r = await sandboxed(
      repo,
      `cp -r .git evil && git config -f evil/config core.fsmonitor 'touch ${
        marker("commondir")
      }; false' && ` +
        `echo ../evil > .git/commondir`,
    );
    expect(r.quarantined.map((q) => q.path)).toContain(join(repo, ".git", "commondir"));
    hostGit(repo, "status");
    expect(existsSync(marker("commondir"))).toBe(false);
  });

  test("a submodule's git directory (.git/modules/<name>) keeps its config and hooks", async () => {
    const repo = newRepo("super");
    const sub = join(repo, ".git", "modules", "lib");
    mkdirSync(join(dir, "lib-src"));
    hostGit(join(dir, "lib-src"), "init", "-q");
    hostGit(join(dir, "lib-src"), "commit", "-q", "--allow-empty", "-m", "lib");
    mkdirSync(join(repo, ".git", "modules"));
    hostGit(repo, "clone", "-q", "--separate-git-dir", sub, join(dir, "lib-src"), join(repo, "lib"));
    expect(readFileSync(join(repo, "lib", ".git"), "utf8")).toContain("modules/lib");
    await sandboxed(
      repo,
      `git -C lib config core.fsmonitor 'touch ${marker("module")}; false'; ` +
        `echo 'touch ${marker("module-hook")}' > .git/modules/lib/hooks/post-commit; ` +
        `chmod +x .git/modules/lib/hooks/post-commit`,
    );
    hostGit(join(repo, "lib"), "status");
    hostGit(join(repo, "lib"), "commit", "-q", "--allow-empty", "-m", "x");
    expect(existsSync(marker("module"))).toBe(false);
    expect(existsSync(marker("module-hook"))).toBe(false);
  });

  test("a workspace whose .git is a file: the pointer cannot be repointed", async () => {
    const ws = join(dir, "separate");
    mkdirSync(ws);
    hostGit(dir, "init", "-q", "--separate-git-dir", join(dir, "separate-gitdir"), ws);
    const pointer = readFileSync(join(ws, ".git"), "utf8");
    await sandboxed(
      ws,
      `git init -q --bare evil && git config -f evil/config core.fsmonitor 'touch ${
        marker("pointer")
      }; false'; ` +
        `echo "gitdir: ${join(ws, "evil")}" > .git; rm -f .git; echo "gitdir: ${join(ws, "evil")}" > .git`,
    );
    expect(readFileSync(join(ws, ".git"), "utf8")).toBe(pointer);
    hostGit(ws, "status");
    expect(existsSync(marker("pointer"))).toBe(false);
  });

  test("a workspace whose .git is a symbolic link: a repointed link is put back", async () => {
    const ws = join(dir, "linked");
    mkdirSync(ws);
    hostGit(join(dir), "init", "-q", join(dir, "linked-target"));
    Bun.spawnSync(["ln", "-s", join(dir, "linked-target", ".git"), join(ws, ".git")]);
    const r = await sandboxed(
      ws,
      `git init -q other && git -C other ${fsmonitor("symlink").slice(4)}; rm .git && ln -s other/.git .git`,
    );
    expect(Bun.spawnSync(["readlink", join(ws, ".git")], { stdout: "pipe" }).stdout.toString().trim())
      .toBe(join(dir, "linked-target", ".git"));
    expect(r.quarantined.some((q) => q.path === join(ws, ".git"))).toBe(true);
    hostGit(ws, "status");
    expect(existsSync(marker("symlink"))).toBe(false);
  });

  test("a repository created during the run loses its hooks and unsafe config", async () => {
    const repo = newRepo("creates");
    const r = await sandboxed(
      repo,
      `git init -q nested && cd nested && ${fsmonitor("new-config")} && ` +
        `echo 'touch ${marker("new-hook")}' > .git/hooks/post-commit && chmod +x .git/hooks/post-commit`,
    );
    expect(r.quarantined.map((q) => q.path).sort()).toEqual([
      join(repo, "nested", ".git", "config"),
      join(repo, "nested", ".git", "hooks"),
    ]);
    hostGit(join(repo, "nested"), "status");
    hostGit(join(repo, "nested"), "commit", "-q", "--allow-empty", "-m", "x");
    expect(existsSync(marker("new-config"))).toBe(false);
    expect(existsSync(marker("new-hook"))).toBe(false);
  });

  test("a plain git init or clone during the run is left as it is", async () => {
    const repo = newRepo("plain-init");
    const r = await sandboxed(repo, "git init -q fresh && git -C fresh commit -q --allow-empty -m ok");
    expect(r.quarantined).toEqual([]);
    expect(hostGit(join(repo, "fresh"), "log", "--format=%s").out).toBe("ok\n");
  });

  test("a repository created during the run with core.worktree outside the workspace loses its config", async () => {
    const repo = newRepo("worktree-elsewhere");
    mkdirSync(join(dir, "elsewhere"));
    const r = await sandboxed(
      repo,
      `git init -q away && git -C away config core.worktree ${join(dir, "elsewhere")}`,
    );
    expect(r.quarantined.map((q) => q.path)).toEqual([join(repo, "away", ".git", "config")]);
  });

  test("a repository created during the run with core.worktree inside the workspace is left as it is", async () => {
    const repo = newRepo("worktree-inside");
    const r = await sandboxed(
      repo,
      "mkdir -p inner/tree && git init -q inner && git -C inner config core.worktree tree",
    );
    expect(r.stderr).toBe("");
    expect(r.quarantined).toEqual([]);
  });

  test("git init in a workspace that is a subfolder of a larger repository", async () => {
    const big = newRepo("big");
    const ws = join(big, "pkg");
    mkdirSync(ws);
    await sandboxed(
      ws,
      `git init -q . && ${fsmonitor("sub-init")}; ` +
        `git -C .. config core.fsmonitor 'touch ${marker("enclosing")}; false'`,
    );
    hostGit(ws, "status");
    hostGit(big, "status");
    expect(existsSync(marker("sub-init"))).toBe(false);
    expect(existsSync(marker("enclosing"))).toBe(false);
  });

  test("a worktree's git directory (.git/worktrees/<name>) keeps its commondir and config", async () => {
    const repo = newRepo("main-wt");
    hostGit(repo, "worktree", "add", "-q", join(dir, "wt-checkout"));
    await sandboxed(
      repo,
      `cp -r .git evil-common && git config -f evil-common/config core.fsmonitor 'touch ${
        marker("worktree")
      }; false'; ` +
        `echo ${join(repo, "evil-common")} > .git/worktrees/wt-checkout/commondir; ` +
        `printf '[core]\\n\\tfsmonitor = touch ${
          marker("worktree-config")
        }; false\\n' > .git/worktrees/wt-checkout/config.worktree`,
    );
    hostGit(join(dir, "wt-checkout"), "-c", "extensions.worktreeConfig=true", "status");
    expect(existsSync(marker("worktree"))).toBe(false);
    expect(existsSync(marker("worktree-config"))).toBe(false);
  });

  test("a new worktree made inside keeps its own commondir", async () => {
    const repo = newRepo("adds-wt");
    const r = await sandboxed(repo, "git worktree add -q inner-wt && git -C inner-wt status --short");
    expect(r.quarantined).toEqual([]);
    expect(hostGit(join(repo, "inner-wt"), "status", "--short").code).toBe(0);
  });
});
