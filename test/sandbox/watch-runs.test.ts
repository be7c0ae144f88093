/**
 * Sandboxed runs planned from a change watcher: in-process (the Bash tool's way) and through the
 * workspace's watcher process (`toolrt sandbox`'s way). What changes between runs and inside a run
 * is seen; a watcher that cannot be trusted is not used.
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { askResident } from "../../src/hook/resident/client.ts";
import { buildSandboxProfile } from "../../src/sandbox/profile.ts";
import { runWrapped } from "../../src/sandbox/run.ts";
import { TreeWatch } from "../../src/sandbox/tree-watch.ts";
import { InProcessScanner } from "../../src/sandbox/watch-service.ts";
import { wrapCommand } from "../../src/sandbox/wrap.ts";
import { runCli } from "../helpers/cli.ts";
import { eventually } from "../helpers/eventually.ts";
import { gitTestEnv } from "../helpers/git-env.ts";
import { programFor, sandboxFor } from "../helpers/requirements.ts";

const usable = sandboxFor("runs with a change watcher", "bwrap") &&
  programFor("git", "runs with a change watcher");

const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-watch-runs-")));
// Removing the state dirs also sends the watcher processes away (they leave when it is gone).
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gitEnv = gitTestEnv({ HOME: join(dir, "home") });

function workspace(name: string) {
  const ws = join(dir, name);
  const outside = join(dir, `${name}-outside`);
  mkdirSync(join(ws, "src", "deep"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, "src", "twin-a"), "original\n");
  linkSync(join(ws, "src", "twin-a"), join(ws, "src", "deep", "twin-b")); // both links inside
  writeFileSync(join(ws, "src", "plain"), "p\n");
  return { ws, outside, state: join(dir, `${name}-state`), marker: join(dir, `${name}-marker`) };
}

/** A payload git on the host would run: it must never leave the marker. */
const newRepoWithPayload = (marker: string) =>
  `git init -q made && git -C made config core.fsmonitor 'touch ${marker}; false'`;

describe.skipIf(!usable)("a change watcher in the process (the Bash tool's way)", () => {
  test("a repository made during a run is seen after it, and its config is quarantined", async () => {
    const { ws, state, marker } = workspace("in-process");
    const watch = new TreeWatch(join(state, "sandbox"));
    const scanner = new InProcessScanner(watch);
    const profile = buildSandboxProfile({}, ws);
    const run = async (script: string) => {
      const wrapped = await wrapCommand(profile, ["/bin/sh", "-c", script], {
        cwd: ws,
        env: gitEnv,
        stateDir: state,
        scanner,
      });
      const result = await runWrapped(wrapped, ["ignore", "pipe", "pipe"]);
      return { wrapped, result };
    };
    expect((await run("true")).wrapped.revalidation?.mode).toBe("full"); // first look at the tree
    const { wrapped, result } = await run(newRepoWithPayload(marker));
    expect(wrapped.revalidation).toEqual({ mode: "events" });
    expect(result.quarantined.map((q) => q.path)).toContain(join(ws, "made", ".git", "config"));
    Bun.spawnSync(["git", "status"], {
      cwd: join(ws, "made"),
      env: gitEnv,
      stdout: "ignore",
      stderr: "ignore",
    });
    expect(existsSync(marker)).toBe(false);
    watch.close();
  });
});

describe.skipIf(!usable)("the workspace's watcher process (toolrt sandbox's way)", () => {
  const { ws, outside, state, marker } = workspace("cli");
  const env = {
    ...gitEnv,
    TOOLRT_HOME: state,
    TOOLRT_SANDBOX_WATCH_MIN_DIRS: "0", // a watcher even for this small tree
    TOOLRT_SANDBOX_WATCH_IDLE_MS: "120000",
  };
  const sandbox = (...command: string[]) =>
    runCli(["sandbox", "--workspace", ws, "--", ...command], {
      cwd: ws,
      env: { ...env, TOOLRT_SANDBOX_TIMING: "1" },
    });
  const explain = () => runCli(["sandbox", "--workspace", ws, "--explain"], { cwd: ws, env }).stdout;
  const watchDir = join(state, "sandbox", "watch");
  const socket = () => readdirSync(watchDir).find((name) => name.endsWith(".sock"));

  test("the first run revalidates in full and starts a watcher, which the next runs ask", async () => {
    const first = sandbox("true");
    expect(first.code).toBe(0);
    expect(first.stderr).toContain("wrap:scanned(full)");
    await eventually(() => existsSync(watchDir) && socket() !== undefined, "the watcher's socket");
    expect(explain()).toContain("revalidated by the change watcher");
    expect(sandbox("true").stderr).toContain("wrap:scanned(events)");
  });

  test("a hard link made outside between two runs makes the file read-only in the next one", () => {
    linkSync(join(ws, "src", "twin-a"), join(outside, "third"));
    const run = sandbox("/bin/sh", "-c", "echo changed > src/twin-a");
    expect(run.stderr).toContain("wrap:scanned(events)");
    expect(run.code).not.toBe(0);
    expect(readFileSync(join(outside, "third"), "utf8")).toBe("original\n");
    expect(explain()).toContain(
      `${join(ws, "src", "twin-a")} (hard link to a file outside the writable roots)`,
    );
  });

  test("a repository made during a run is seen by the watcher after it", () => {
    const run = sandbox("/bin/sh", "-c", newRepoWithPayload(marker));
    expect(run.stderr).toContain("wrap:scanned(events)");
    expect(run.stderr).toContain(join(ws, "made", ".git", "config"));
    Bun.spawnSync(["git", "status"], {
      cwd: join(ws, "made"),
      env: gitEnv,
      stdout: "ignore",
      stderr: "ignore",
    });
    expect(existsSync(marker)).toBe(false);
  });

  test("it answers no request about other trees", async () => {
    const request = { build: "source", op: "scan", roots: ["/"], denyRead: [] };
    const uid = process.getuid?.() ?? -1;
    const outcome = await askResident(join(watchDir, socket()!), `${JSON.stringify(request)}\n`, uid, 10_000);
    expect(outcome).toEqual({ start: false });
  });

  test("a watcher socket in a directory others may write is not used", () => {
    chmodSync(watchDir, 0o777);
    try {
      expect(explain()).toContain("revalidated in full");
      const run = sandbox("true");
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("wrap:scanned(full)");
    } finally {
      chmodSync(watchDir, 0o700);
    }
  });
});
