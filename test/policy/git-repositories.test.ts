/**
 * Read-only git commands trust only the workspace's own repository. A repository elsewhere in the
 * workspace (a bare repository committed into the project, a nested clone, a submodule's git dir)
 * has a configuration anyone may have written, and git runs programs from it on "read-only"
 * commands: verified in real bash with git 2.39, `git -C evil status` ran `core.fsmonitor`
 * (`touch /tmp/pwned`) and `git -C evil ls-remote origin` ran `remote.origin.uploadpack`.
 * Such commands ask on the host; in the sandbox they stay contained.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { decide } from "../../src/policy/decide.ts";
import { untrustedRepository } from "../../src/policy/git-repository.ts";
import { buildRequest } from "../../src/policy/request.ts";
import type { Decision } from "../../src/policy/types.ts";
import { realPathOfNearestExisting } from "../../src/tool/paths.ts";
import { bashDecision, type Sandbox, sandbox } from "./helpers.ts";

let box: Sandbox;
let root: string;

/** A directory git takes for a repository: `HEAD`, `objects/`, `refs/`. */
function repository(dir: string, config = "[core]\n\tfsmonitor = touch /tmp/pwned\n"): void {
  mkdirSync(join(dir, "objects"), { recursive: true });
  mkdirSync(join(dir, "refs"), { recursive: true });
  writeFileSync(join(dir, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(dir, "config"), config);
}

beforeAll(() => {
  box = sandbox();
  root = realPathOfNearestExisting(box.cwd);
  // The workspace's own: a config that names no program (one that does asks: repo-programs.test.ts).
  repository(join(root, ".git"), "[core]\n\tbare = false\n");
  repository(join(root, "evil"));
  repository(join(root, ".git/modules/sub"));
  mkdirSync(join(root, "nested/src"), { recursive: true });
  repository(join(root, "nested/.git"));
  mkdirSync(join(root, "src/lib"), { recursive: true });
});

const check = (command: string): Promise<Decision> => bashDecision(box, command, { sandboxed: false });

describe("untrustedRepository follows git's discovery", () => {
  test("the workspace's own repository, from anywhere in it, is trusted", () => {
    for (const start of [root, join(root, "src/lib"), join(root, ".git")]) {
      expect(untrustedRepository(start, [root]), start).toBeUndefined();
    }
    expect(untrustedRepository(join(root, ".git"), [root], true)).toBeUndefined();
  });

  test("a bare repository, a nested clone and a submodule's git dir are not", () => {
    expect(untrustedRepository(join(root, "evil"), [root])).toContain(join(root, "evil"));
    expect(untrustedRepository(join(root, "nested/src"), [root])).toContain(join(root, "nested/.git"));
    expect(untrustedRepository(join(root, ".git/modules/sub"), [root])).toContain(".git/modules/sub");
    expect(untrustedRepository(join(root, "evil"), [root], true)).toContain(join(root, "evil"));
  });

  test("outside every root, a directory with no repository above it is someone else's question", () => {
    expect(untrustedRepository("/usr", [root])).toBeUndefined();
  });
});

describe("git on another repository in the workspace asks on the host", () => {
  const forms = [
    "git -C evil status",
    "git -C ./evil/ diff",
    "git -C ev* status",
    "git -C src/../evil ls-files",
    "cd evil && git status",
    "pushd evil && git log",
    "git --git-dir=evil status",
    "git --work-tree=. --git-dir=evil status",
    "git -C evil ls-remote origin",
    "git -C nested/src grep x",
    "git -C .git/modules/sub log",
  ];
  for (const command of forms) {
    test(command, async () => {
      const d = await check(command);
      expect(d.decision, command).toBe("ask");
      expect(d.reason).toMatch(/not the workspace's own: its configuration can run programs/);
    });
  }

  test("the workspace's own repository stays read-only", async () => {
    for (const command of ["git status", "git -C src/lib log", "cd src && git diff", "git -C .git log"]) {
      const d = await check(command);
      expect(d.decision, `${command}: ${d.reason}`).toBe("allow");
    }
  });

  test("Read(./**) does not vouch for another repository", async () => {
    const bash = await analyzeBash("git -C evil status");
    const request = buildRequest({
      tool: "Bash",
      input: { command: "git -C evil status" },
      cwd: box.cwd,
      bash,
    });
    const policy = box.load({ cliRules: { allow: ["Read(./**)"] } }).policy;
    expect(decide(request, policy).decision).toBe("ask");
  });
});
