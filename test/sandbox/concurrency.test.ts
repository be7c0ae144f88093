/**
 * Sandboxes at once: several workspaces, several runs each, and a directory swapped for a symbolic
 * link while sandboxes start. Real bwrap runs; skipped with the reason where there is none.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectSandbox } from "../../src/sandbox/detect.ts";
import { buildSandboxProfile, type SandboxProfile } from "../../src/sandbox/profile.ts";
import { runWrapped } from "../../src/sandbox/run.ts";
import { SandboxRefusedError, wrapCommand } from "../../src/sandbox/wrap.ts";
import { gitTestEnv } from "../helpers/git-env.ts";

const availability = detectSandbox();
const usable = availability.available && availability.kind === "bwrap" && Bun.which("git") !== null;
if (!usable) console.warn("skipping concurrent sandbox runs: needs bwrap and git");

const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-concurrent-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = gitTestEnv();

async function sandboxed(profile: SandboxProfile, script: string) {
  const wrapped = await wrapCommand(profile, ["/bin/sh", "-c", script], { cwd: profile.workspace, env });
  return runWrapped(wrapped, ["ignore", "pipe", "pipe"]);
}

const runDirs = () => new Set(readdirSync(tmpdir()).filter((n) => n.startsWith("toolrt-sbx-")));

describe.skipIf(!usable)("concurrent sandboxes", () => {
  test("three workspaces, three runs each at once: no interference, nothing left behind", async () => {
    const before = runDirs();
    const workspaces = ["a", "b", "c"].map((name) => {
      const ws = join(dir, name);
      mkdirSync(ws);
      Bun.spawnSync(["git", "init", "-q", ws], { env });
      return ws;
    });
    const runs = workspaces.flatMap((ws, w) =>
      [0, 1, 2].map((i) =>
        sandboxed(
          buildSandboxProfile({}, ws),
          // Run 0 of each workspace also leaves a .zshrc (a protected path), to be quarantined.
          `echo ${w}-${i} > out-${i} && echo t > "$TMPDIR/t" && ls -A | sort | tr '\\n' ' '` +
            (i === 0 ? " && echo evil > .zshrc" : ""),
        )
      )
    );
    const results = await Promise.all(runs);
    for (const r of results) expect(r.exitCode).toBe(0);
    for (const [w, ws] of workspaces.entries()) {
      expect(readdirSync(ws).sort()).toEqual([".git", "out-0", "out-1", "out-2"]);
      for (const i of [0, 1, 2]) expect(readFileSync(join(ws, `out-${i}`), "utf8")).toBe(`${w}-${i}\n`);
      const quarantined = results.slice(w * 3, w * 3 + 3).flatMap((r) => r.quarantined.map((q) => q.path));
      // Whichever run of this workspace ended after the .zshrc appeared moved it; only one could.
      expect(quarantined).toEqual([join(ws, ".zshrc")]);
    }
    // The command saw only its own workspace's files (no stand-ins, nothing of the others').
    for (const r of results) expect(r.stdout).toMatch(/^\.git (\.zshrc )?(out-\d )+$/);
    expect([...runDirs()].filter((d) => !before.has(d))).toEqual([]);
  });

  test("a writable root swapped for a link to another directory while sandboxes start: never written", async () => {
    const shared = join(dir, "shared");
    const victim = join(dir, "victim");
    mkdirSync(join(shared, "a"), { recursive: true });
    mkdirSync(victim);
    const ws = join(dir, "ws");
    mkdirSync(ws);
    // Planned while `a` is a real directory, as a session's profile is planned once.
    const profile = buildSandboxProfile({ allowWrite: [join(shared, "a")] }, ws);
    const swapper = Bun.spawn([
      "bash",
      "-c",
      "while :; do mv a a-real && ln -s ../victim a && rm a && mv a-real a; done",
    ], {
      cwd: shared,
      stdout: "ignore",
      stderr: "ignore",
    });
    let ran = 0;
    let refused = 0;
    try {
      for (let i = 0; i < 40; i++) {
        try {
          await sandboxed(
            profile,
            `echo x > ${join(shared, "a", `m${i}`)}; echo x > ${join(victim, `m${i}`)}`,
          );
          ran++;
        } catch (error) {
          if (!(error instanceof SandboxRefusedError)) throw error;
          refused++;
        }
      }
    } finally {
      swapper.kill();
      await swapper.exited;
    }
    expect(ran + refused).toBe(40);
    expect(readdirSync(victim)).toEqual([]);
    expect(existsSync(join(shared, "a")) || existsSync(join(shared, "a-real"))).toBe(true);
  });
});
