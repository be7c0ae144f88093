/**
 * git indirection (fixtures/bash/git-indirection.jsonl): configuration a line sets that names
 * programs or aliases, plumbing spellings of push and of work-losing commands, commands git runs
 * for each submodule, bisect step or rebased commit, and content printed from the history. Each
 * line is decided in a real repository built for it (on the host or as a sandboxed call) with its
 * own rules, and each hostile line is then run with real git and a stub `curl`, to show it really
 * has the effect it names: pushes, loses the uncommitted change, drops branch y's commit, runs
 * curl, or prints the secret the history holds.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzerDeps, checkCall, withBashParser } from "../../src/cli/check-call.ts";
import { globalsFrom } from "../../src/cli/options.ts";
import type { ExecutionPlace } from "../../src/exec/processes/sandbox-context.ts";
import { loadPolicy } from "../../src/policy/load.ts";
import { sandbox } from "../policy/helpers.ts";

interface Case {
  command: string;
  context: "host" | "sandboxed";
  expect: "allow" | "ask" | "deny";
  note: string;
  rules?: { deny?: string[]; ask?: string[] };
  effect?: "pushes" | "loses" | "drops-y" | "drops-stash" | "runs-curl" | "prints-secret";
  /** The history holds a `.env` committed once and removed. */
  history?: boolean;
  /** No uncommitted change (rebase, bisect and filter-branch refuse to start with one). */
  clean?: boolean;
  /** The user's global git configuration. */
  globalConfig?: string;
  /** An embedded repository committed as a gitlink, whose own configuration sets core.fsmonitor=curl. */
  embedded?: boolean;
  /** Untracked files the line reads. */
  files?: Record<string, string>;
}

const FIXTURE = join(import.meta.dir, "../../fixtures/bash/git-indirection.jsonl");
const cases: Case[] = readFileSync(FIXTURE, "utf8").split("\n").filter((l) => l !== "").map((l) =>
  JSON.parse(l)
);
const GIT = spawnSync("git", ["--version"]).status === 0;
const BASH = ["/bin/bash", "/usr/bin/bash"].find(existsSync);
const box = sandbox();
const saved = {
  GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL,
  GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM,
};

beforeAll(async () => {
  await withBashParser();
  process.env.GIT_CONFIG_NOSYSTEM = "1";
});
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/**
 * A repository `work` with commits base, two, a submodule `sub`, (a `.env` added and removed), one
 * commit not yet pushed to `../remote.git`; branch x at two and y one commit past it; an
 * uncommitted change to a.txt and to sub/f.txt. Returns the directory holding it.
 */
function repository(c: Case): { dir: string; work: string; global: string } {
  const dir = mkdtempSync(join(tmpdir(), "toolrt-git-"));
  mkdirSync(join(dir, "home"));
  const global = join(dir, "home", ".gitconfig");
  writeFileSync(global, `[user]\n\temail = t@example.com\n\tname = t\n${c.globalConfig ?? ""}`);
  const script = `set -e
git init -q -b main --bare remote.git
git init -q -b main sublib && git -C sublib commit -q --allow-empty -m lib
echo lib > sublib/f.txt && git -C sublib add f.txt && git -C sublib commit -qm f
git init -q -b main work && cd work
echo base > a.txt && git add a.txt && git commit -qm base
echo two > b.txt && git add b.txt && git commit -qm two
git -c protocol.file.allow=always submodule add -q ../sublib sub && git commit -qm sub
${
    c.history
      ? "echo API_KEY=FAKESECRET > .env && git add .env && git commit -qm env && git rm -q .env && git commit -qm rm-env"
      : ""
  }
git remote add origin ../remote.git && git push -q origin main
git branch x HEAD~1 && git checkout -q -b y x && echo y > y.txt && git add y.txt && git commit -qm work-on-y
git checkout -q main && git commit -q --allow-empty -m ahead
${
    c.embedded
      ? "git init -q evil && echo e > evil/e.txt && git -C evil add e.txt && git -C evil commit -qm e && git add evil 2>/dev/null && git commit -qm evil && git -C evil config core.fsmonitor curl && echo x >> evil/e.txt"
      : ""
  }
${c.clean ? "" : "echo CHANGED > a.txt && echo changed > sub/f.txt"}
`;
  const made = spawnSync(BASH!, ["-c", script], { cwd: dir, env: gitEnv(dir), encoding: "utf8" });
  if (made.status !== 0) throw new Error(`setup failed: ${made.stderr}`);
  for (const [name, text] of Object.entries(c.files ?? {})) writeFileSync(join(dir, "work", name), text);
  return { dir, work: join(dir, "work"), global };
}

/** Real git's environment: the stub first on PATH, the repository's own home. */
function gitEnv(dir: string): Record<string, string> {
  return {
    PATH: `${join(dir, "bin")}:/usr/local/bin:/usr/bin:/bin`,
    HOME: join(dir, "home"),
    GIT_CONFIG_NOSYSTEM: "1",
    STUB_LOG: join(dir, "curl.log"),
  };
}

const git = (work: string, env: Record<string, string>, ...args: string[]) =>
  spawnSync("git", args, { cwd: work, env, encoding: "utf8" }).stdout.trim();

describe.skipIf(!GIT || !BASH)("decided in a real repository", () => {
  test("the fixture covers every class, with everyday lines of each context", () => {
    for (const effect of ["pushes", "loses", "drops-y", "drops-stash", "runs-curl", "prints-secret"]) {
      expect(cases.some((c) => c.effect === effect), effect).toBe(true);
    }
    expect(cases.filter((c) => c.expect === "allow" && c.context === "sandboxed").length)
      .toBeGreaterThanOrEqual(8);
    expect(cases.filter((c) => c.expect === "allow" && c.context === "host").length).toBeGreaterThanOrEqual(
      4,
    );
    const key = (c: Case) => `${c.context} ${c.history ?? false} ${c.embedded ?? false} ${c.command}`;
    expect(new Set(cases.map(key)).size).toBe(cases.length);
  });

  test.each(cases.map((c) => [`${c.context}: ${c.note}`, c] as const))("%s", async (_note, c) => {
    const { work, global } = repository(c);
    // The alias lookup and the history listing run git with this process's environment: the
    // repository's own global configuration stands in for the user's.
    process.env.GIT_CONFIG_GLOBAL = global;
    const policy = loadPolicy({ cwd: work, stateDir: box.stateDir, env: box.env, cliRules: c.rules ?? {} })
      .policy;
    const globals = { ...globalsFrom({ cwd: work, stateDir: box.stateDir }), color: false };
    const place: ExecutionPlace = {
      sandboxed: true,
      context: { writable: [work], allowNet: [], asksForHosts: false, denyRead: [] },
    };
    const call = { command: c.command };
    const got = c.context === "sandboxed"
      ? await checkCall("Bash", call, policy, globals, analyzerDeps, () => place)
      : await checkCall("Bash", call, policy, globals, analyzerDeps);
    expect(got.decision, got.reason).toBe(c.expect);
  });
});

describe.skipIf(!GIT || !BASH)("the hostile lines really have their effect (real git, stub curl)", () => {
  test.each(cases.filter((c) => c.effect).map((c) => [c.command, c] as const))("%s", (_command, c) => {
    const { dir, work } = repository(c);
    const env = gitEnv(dir);
    mkdirSync(join(dir, "bin"));
    writeFileSync(join(dir, "bin", "curl"), `#!${BASH}\necho "curl $*" >> "$STUB_LOG"\n`);
    chmodSync(join(dir, "bin", "curl"), 0o755);
    const y = git(work, env, "rev-parse", "y");
    const run = spawnSync(BASH!, ["-c", c.command], {
      cwd: work,
      env,
      encoding: "utf8",
      input: "",
      timeout: 30_000,
    });
    const output = run.stdout + run.stderr;
    switch (c.effect) {
      case "pushes":
        expect(git(work, env, "--git-dir=../remote.git", "rev-parse", "main"), output).toBe(
          git(work, env, "rev-parse", "main"),
        );
        break;
      case "loses": {
        const a = readFileSync(join(work, "a.txt"), "utf8").trim();
        const sub = readFileSync(join(work, "sub", "f.txt"), "utf8").trim();
        expect(a !== "CHANGED" || sub !== "changed", output).toBe(true);
        break;
      }
      case "drops-stash":
        expect(readFileSync(join(work, "a.txt"), "utf8").trim(), output).toBe("base");
        expect(git(work, env, "stash", "list"), output).toBe("");
        break;
      case "drops-y":
        expect(git(work, env, "branch", "--contains", y), output).toBe("");
        break;
      case "runs-curl":
        expect(existsSync(env.STUB_LOG!), output).toBe(true);
        break;
      case "prints-secret":
        expect(output).toContain("FAKESECRET");
        break;
    }
  });
});
