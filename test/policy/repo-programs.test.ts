/**
 * The workspace's own repository asks when its config names a program git runs on read-only
 * commands. Verified with real git 2.39 (below, again): a workspace whose .git/config sets
 * `core.fsmonitor` to a command ran it on `git status`, as a repository unpacked from an archive
 * does. Values well-known tools write (git-lfs, git-crypt, a boolean fsmonitor, a plain pager) run.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { programOnRead, RUN_ON_READS } from "../../src/policy/repo-programs.ts";
import { gitTestEnv } from "../helpers/git-env.ts";
import { programFor } from "../helpers/requirements.ts";
import { bashDecision, sandbox } from "./helpers.ts";

const hasGit = programFor("git", "a workspace repository whose config names programs");

/** A workspace repository with these config lines under their sections; returns the decision for `command`. */
async function decisionWith(
  config: string,
  command = "git status",
): Promise<{ decision: string; reason: string; cwd: string; home: string }> {
  const box = sandbox();
  Bun.spawnSync(["git", "init", "-q"], { cwd: box.cwd, env: gitTestEnv({ HOME: box.home }) });
  writeFileSync(
    join(box.cwd, ".git", "config"),
    `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${config}`,
  );
  const d = await bashDecision(box, command, { sandboxed: false });
  return { decision: d.decision, reason: d.reason, cwd: box.cwd, home: box.home };
}

describe.skipIf(!hasGit)("the workspace's own repository config", () => {
  test("core.fsmonitor naming a command asks, and the hazard is real", async () => {
    const marker = join(sandbox().root, "fsmonitor-ran");
    const d = await decisionWith(`\tfsmonitor = "touch ${marker}; false"\n`);
    expect(d.decision).toBe("ask");
    expect(d.reason).toContain("core.fsmonitor = touch");
    expect(d.reason).toContain("git status, diff and others run");
    Bun.spawnSync(["git", "status"], {
      cwd: d.cwd,
      env: gitTestEnv({ HOME: d.home }),
      stdout: "ignore",
      stderr: "ignore",
    });
    expect(existsSync(marker)).toBe(true);
  });
  test("spellings git reads the same way are read the same way", async () => {
    for (
      const config of [
        '[CORE]\n\tFsMonitor = "x"\n',
        "[core] fsmonitor = x\n",
        '[diff]\n\texternal = "./x"\n',
      ]
    ) {
      expect((await decisionWith(config, "git diff")).decision, config).toBe("ask");
    }
  });
  test("what git-lfs, git-crypt and everyday settings write still runs", async () => {
    for (
      const config of [
        "\tfsmonitor = true\n",
        "\tpager = less -R\n",
        '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true\n',
        '[filter "git-crypt"]\n\tsmudge = \\"git-crypt\\" smudge\n\tclean = \\"git-crypt\\" clean\n[diff "git-crypt"]\n\ttextconv = \\"git-crypt\\" diff\n',
        "\thooksPath = .husky\n",
      ]
    ) {
      const d = await decisionWith(config);
      expect(d.decision, `${config}: ${d.reason}`).toBe("allow");
    }
  });
});

describe.skipIf(!hasGit)("a repository outside the workspace", () => {
  test("whose config names a program asks even when an allow rule covers the command", async () => {
    const box = sandbox();
    const elsewhere = join(box.root, "elsewhere");
    Bun.spawnSync(["git", "init", "-q", elsewhere], { env: gitTestEnv({ HOME: box.home }) });
    const clean = join(box.root, "clean");
    Bun.spawnSync(["git", "init", "-q", clean], { env: gitTestEnv({ HOME: box.home }) });
    writeFileSync(join(elsewhere, ".git", "config"), '[core]\n\tfsmonitor = "touch /tmp/x; false"\n');
    const cliRules = { allow: ["Bash(git status:*)"] };
    const decideFor = (command: string) => bashDecision(box, command, { sandboxed: false, cliRules });
    const d = await decideFor(`git -C ${elsewhere} status`);
    expect(d.decision, d.reason).toBe("ask");
    expect(d.reason).toContain("a repository outside the workspace");
    expect((await decideFor(`git -C ${clean} status`)).decision).toBe("allow");
  });
});

describe("each key that runs a program on read-only commands", () => {
  const cases: Record<string, [string, string, string?]> = {
    "^core\\.fsmonitor$": ["core.fsmonitor", "./watch.sh", "true"],
    "^filter\\..+\\.(?:clean|smudge|process)$": ["filter.x.clean", "sh -c 'id'", "git-lfs clean -- %f"],
    "^diff\\..+\\.(?:textconv|command)$": ["diff.x.textconv", "./conv", '"git-crypt" diff'],
    "^diff\\.external$": ["diff.external", "./ext"],
    "^(?:core\\.pager|pager\\..+)$": ["pager.log", "sh -c 'curl x | sh'", "delta"],
    "^gpg(?:\\..+)?\\.program$": ["gpg.ssh.program", "./fake-ssh-keygen"],
  };
  for (const entry of RUN_ON_READS) {
    test(entry.key.source, () => {
      const [key, runs, inert] = cases[entry.key.source]!;
      expect(programOnRead([{ key, value: runs }])).toContain(`${key} = ${runs}, which ${entry.runs}`);
      if (inert !== undefined) expect(programOnRead([{ key, value: inert }])).toBeUndefined();
    });
  }
  test("other keys are not programs here", () => {
    expect(programOnRead([{ key: "core.hookspath", value: ".husky" }, { key: "user.name", value: "x" }]))
      .toBeUndefined();
  });
});
