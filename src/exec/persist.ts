/** Large results are written whole to the state dir; old ones are cleaned up after a retention period. */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const DEFAULT_RETENTION_DAYS = 7;

export function resultsDir(stateDir: string): string {
  return join(stateDir, "results");
}

/** Writes one result; the file name is the tool_use id made safe for a path. */
export function persistResult(stateDir: string, toolUseId: string, text: string): string {
  const dir = resultsDir(stateDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${toolUseId.replace(/[^A-Za-z0-9_.-]/g, "_")}.txt`);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

/** Removes persisted results older than the retention period; returns how many it removed. */
export function cleanupPersistedResults(
  stateDir: string,
  retentionDays = DEFAULT_RETENTION_DAYS,
  now = Date.now(),
): number {
  const dir = resultsDir(stateDir);
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  const cutoff = now - retentionDays * 24 * 60 * 60 * 1000;
  let removed = 0;
  for (const entry of entries) {
    const path = join(dir, entry);
    try {
      if (statSync(path).mtimeMs < cutoff) {
        rmSync(path, { force: true });
        removed++;
      }
    } catch { /* vanished meanwhile */ }
  }
  return removed;
}
