/** Run directories of killed toolrt processes are removed at the next start; live ones never. */
import { afterAll, describe, expect, test } from "bun:test";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pidNamespace } from "../../src/sandbox/alive.ts";
import { makeRunDir, sweepStaleRunDirs } from "../../src/sandbox/run-dir.ts";
import { sandboxFor } from "../helpers/requirements.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-rundir-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A pid that was a process and is not one any more. */
function deadPid(): number {
  const proc = Bun.spawnSync(["/bin/sh", "-c", "echo $$"]);
  return Number(proc.stdout.toString().trim());
}

describe("stale run directories", () => {
  const uid = process.getuid?.() ?? 0;
  test("a run directory is named after this process, and the first one in a base sweeps it", () => {
    const base = join(root, "first");
    const runs = join(base, `toolrt-sbx-${uid}`);
    mkdirSync(runs, { recursive: true, mode: 0o711 });
    const stale = join(runs, `${pidNamespace()}-${deadPid()}-AbC123`);
    mkdirSync(join(stale, "tmp"), { recursive: true });
    writeFileSync(join(stale, "tmp", "big"), "x".repeat(1000));
    const dir = makeRunDir(base);
    expect(dir).toStartWith(join(runs, `${pidNamespace()}-${process.pid}-`));
    expect(readdirSync(runs)).toEqual([dir.slice(runs.length + 1)]);
  });

  test("only dead owners of this pid namespace lose theirs: live runs, other namespaces and other names stay", () => {
    const runs = join(root, "mixed");
    mkdirSync(runs);
    const ns = pidNamespace();
    const live = Bun.spawn(["sleep", "30"]);
    const names = {
      dead: `${ns}-${deadPid()}-aaaaaa`,
      live: `${ns}-${live.pid}-bbbbbb`,
      self: `${ns}-${process.pid}-cccccc`,
      otherNamespace: `1-${deadPid()}-dddddd`,
      unrelated: "something-else",
    };
    for (const name of Object.values(names)) mkdirSync(join(runs, name));
    const deadFile = `${ns}-${deadPid()}-ffffff`;
    writeFileSync(join(runs, deadFile), ""); // not a directory: not a run's
    try {
      expect(sweepStaleRunDirs(runs)).toEqual([names.dead]);
      expect(readdirSync(runs).sort()).toEqual(
        [names.live, names.self, names.otherNamespace, names.unrelated, deadFile].sort(),
      );
    } finally {
      live.kill();
    }
  });

  test("a directory of runs that is not this uid's private one is refused, not used", () => {
    const base = join(root, "hostile");
    mkdirSync(base);
    const runs = join(base, `toolrt-sbx-${uid}`);
    mkdirSync(runs, { mode: 0o777 });
    chmodSync(runs, 0o777); // as another user's pre-made world-writable trap would be
    expect(() => makeRunDir(base)).toThrow(/is not a private directory of uid .* mode 777/);
    rmSync(runs, { recursive: true });
    symlinkSync(join(root, "elsewhere"), runs);
    expect(() => makeRunDir(base)).toThrow(/a symbolic link/);
  });

  const usable = sandboxFor("the killed-run case", "bwrap");
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
      const runDirs = () => {
        try {
          return readdirSync(join(parent, `toolrt-sbx-${process.getuid?.() ?? 0}`));
        } catch {
          return []; // not made yet
        }
      };
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
