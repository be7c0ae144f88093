/** Run directories of killed toolrt processes are removed at the next start; live ones never. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pidNamespace } from "../../src/sandbox/alive.ts";
import { detectSandbox } from "../../src/sandbox/detect.ts";
import { makeRunDir, sweepStaleRunDirs } from "../../src/sandbox/run-dir.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-rundir-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A pid that was a process and is not one any more. */
function deadPid(): number {
  const proc = Bun.spawnSync(["/bin/sh", "-c", "echo $$"]);
  return Number(proc.stdout.toString().trim());
}

describe("stale run directories", () => {
  test("a run directory is named after this process, and the first one in a parent sweeps it", () => {
    const parent = join(root, "first");
    mkdirSync(parent);
    const stale = join(parent, `toolrt-sbx-${pidNamespace()}-${deadPid()}-AbC123`);
    mkdirSync(join(stale, "tmp"), { recursive: true });
    writeFileSync(join(stale, "tmp", "big"), "x".repeat(1000));
    const dir = makeRunDir(parent);
    expect(dir).toStartWith(join(parent, `toolrt-sbx-${pidNamespace()}-${process.pid}-`));
    expect(readdirSync(parent)).toEqual([dir.slice(parent.length + 1)]);
  });

  test("only dead owners of this pid namespace lose theirs: live runs, other namespaces and other names stay", () => {
    const parent = join(root, "mixed");
    mkdirSync(parent);
    const ns = pidNamespace();
    const live = Bun.spawn(["sleep", "30"]);
    const names = {
      dead: `toolrt-sbx-${ns}-${deadPid()}-aaaaaa`,
      live: `toolrt-sbx-${ns}-${live.pid}-bbbbbb`,
      self: `toolrt-sbx-${ns}-${process.pid}-cccccc`,
      otherNamespace: `toolrt-sbx-1-${deadPid()}-dddddd`,
      oldFormat: "toolrt-sbx-eeeeee",
      unrelated: "something-else",
    };
    for (const name of Object.values(names)) mkdirSync(join(parent, name));
    const deadFile = `toolrt-sbx-${ns}-${deadPid()}-ffffff`;
    writeFileSync(join(parent, deadFile), ""); // not a directory: not a run's
    try {
      expect(sweepStaleRunDirs(parent)).toEqual([names.dead]);
      expect(readdirSync(parent).sort()).toEqual(
        [names.live, names.self, names.otherNamespace, names.oldFormat, names.unrelated, deadFile].sort(),
      );
    } finally {
      live.kill();
    }
  });

  const availability = detectSandbox();
  const usable = availability.available && availability.kind === "bwrap";
  if (!usable) {
    console.warn(
      `skipping the killed-run case: ${availability.available ? "not Linux" : availability.reason}`,
    );
  }
  test.skipIf(!usable)(
    "a SIGKILLed `toolrt sandbox` leaves its directory; the next start removes it",
    async () => {
      const parent = join(root, "killed");
      const ws = join(root, "ws");
      mkdirSync(parent);
      mkdirSync(ws);
      const cli = join(import.meta.dir, "../../src/cli/main.ts");
      const env = { ...process.env, TMPDIR: parent };
      const victim = Bun.spawn([process.execPath, cli, "sandbox", "--", "sleep", "30"], {
        cwd: ws,
        env,
        stdout: "ignore",
        stderr: "ignore",
      });
      // Other state (the placeholder registry) may live in the same temp dir: only run dirs count.
      const runDirs = () => readdirSync(parent).filter((name) => name.startsWith("toolrt-sbx-"));
      while (runDirs().length === 0) await Bun.sleep(20);
      const [left] = runDirs();
      victim.kill("SIGKILL");
      await victim.exited;
      expect(runDirs()).toEqual([left!]);
      const next = Bun.spawnSync([process.execPath, cli, "sandbox", "--", "true"], { cwd: ws, env });
      expect(next.exitCode).toBe(0);
      expect(runDirs()).toEqual([]);
    },
  );
});
