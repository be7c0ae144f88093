/**
 * Imported first by every benchmark: points HOME, the XDG directories and toolrt's state dir at a
 * fresh temporary directory, so a run never reads the user's settings nor writes their audit log or
 * state. Child processes inherit it. `bench/all.ts` isolates once for every file it runs; a file run
 * alone isolates itself. The directory is removed at exit.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MARKER = "TOOLRT_BENCH_HOME";

export function isolateHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env[MARKER]) return env[MARKER];
  const root = mkdtempSync(join(tmpdir(), "toolrt-bench-home-"));
  const dirs = {
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "home/.config"),
    XDG_STATE_HOME: join(root, "home/.local/state"),
    XDG_CACHE_HOME: join(root, "home/.cache"),
    XDG_DATA_HOME: join(root, "home/.local/share"),
    TOOLRT_HOME: join(root, "state"),
  };
  for (const [name, dir] of Object.entries(dirs)) {
    mkdirSync(dir, { recursive: true });
    env[name] = dir;
  }
  env[MARKER] = root;
  process.on("exit", () => rmSync(root, { recursive: true, force: true }));
  return root;
}

isolateHome();
