/**
 * The workspace root of a hook session when the host names none: the cwd of the session's first
 * event. Claude Code keeps the shell's working directory between calls, so after an allowed
 * `cd evil` the next event's cwd is `evil`; taking that as the workspace would make `evil`'s
 * repository (and its `core.fsmonitor`) the workspace's own. The first cwd is kept in the state dir,
 * one small file per session, named by a hash of the host and the session id.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Sessions' files older than this are removed when a new session starts. */
const KEEP_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The root recorded for this session, or `cwd` recorded as the root when the session is new. When
 * the state dir cannot be written, `cwd`: the session is judged as before, from where it runs now.
 */
export function sessionRoot(stateDir: string, host: string, sessionId: string, cwd: string): string {
  const dir = join(stateDir, "hook-sessions");
  const file = join(dir, createHash("sha256").update(`${host}\0${sessionId}`).digest("hex").slice(0, 32));
  try {
    const recorded = readFileSync(file, "utf8");
    if (recorded.startsWith("/")) return recorded;
  } catch {
    // a new session
  }
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    pruneOld(dir);
    // `wx`: of two first events racing, the one written first wins and the other reads it.
    writeFileSync(file, cwd, { flag: "wx", mode: 0o600 });
    return cwd;
  } catch {
    try {
      const recorded = readFileSync(file, "utf8");
      return recorded.startsWith("/") ? recorded : cwd;
    } catch {
      return cwd;
    }
  }
}

function pruneOld(dir: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs > KEEP_MS) rmSync(path, { force: true });
    } catch {
      // removed by another hook meanwhile
    }
  }
}
