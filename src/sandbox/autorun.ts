/**
 * Which files that run later (`autorun-files.ts`) a command changed: a snapshot of just those paths
 * before the run and one after, compared. A snapshot is an lstat per listed path, a directory read
 * per `*` and a bounded walk per listed directory, never a walk of the workspace. Identity is inode,
 * size, ctime and mode: ctime cannot be set back from user space (`touch -d` sets mtime), so an edit
 * that restores the old mtime is still seen.
 */
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AUTORUN_FILES, type AutorunFile } from "./autorun-files.ts";
import { globToRegExp } from "./env.ts";
import { isInside } from "../tool/paths.ts";

/** Files recorded below one listed directory at most; what lies beyond is not compared. */
const MAX_FILES_PER_DIR = 1_000;

interface Seen {
  identity: string;
  entry: AutorunFile;
  /** For an entry with `jsonKey`: that part of the file, as text (or the whole text if it is not JSON). */
  part?: string;
}

export type AutorunSnapshot = Map<string, Seen>;

export interface AutorunChange {
  /** Relative to the workspace. */
  path: string;
  change: "created" | "changed" | "removed";
  entry: AutorunFile;
}

/** The identities of the listed files that exist in `workspace` now. */
export function snapshotAutorun(
  workspace: string,
  entries: readonly AutorunFile[] = AUTORUN_FILES,
): AutorunSnapshot {
  const snapshot: AutorunSnapshot = new Map();
  for (const entry of entries) {
    for (const path of expand(workspace, entry.path)) {
      const identity = identityOf(join(workspace, path));
      if (identity === null) continue;
      const seen: Seen = { identity, entry };
      if (entry.jsonKey) seen.part = jsonPart(join(workspace, path), entry.jsonKey);
      snapshot.set(path, seen);
    }
  }
  return snapshot;
}

/**
 * What differs between two snapshots of one workspace, in path order. `readOnly`: absolute paths the
 * command could not write (e.g. read-only mounts that appear and vanish around a run), skipped with
 * everything below them. Pure.
 */
export function changedAutorun(
  before: AutorunSnapshot,
  after: AutorunSnapshot,
  workspace = "",
  readOnly: readonly string[] = [],
): AutorunChange[] {
  const changes: AutorunChange[] = [];
  const skipped = (path: string) => readOnly.some((p) => isInside(join(workspace, path), p));
  for (const path of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    if (skipped(path)) continue;
    const was = before.get(path);
    const is = after.get(path);
    if (was?.identity === is?.identity) continue;
    if (was && is && was.part !== undefined && was.part === is.part) continue; // an unwatched part changed
    changes.push({ path, change: !was ? "created" : !is ? "removed" : "changed", entry: (is ?? was)!.entry });
  }
  return changes;
}

/** `changed files that run later: a (created; run by ...); b ...`, for the model, the audit log and the CLI. */
export function describeAutorunChanges(changes: readonly AutorunChange[]): string {
  const items = changes.map((c) => {
    const what = c.entry.jsonKey ? `${c.path} "${c.entry.jsonKey}"` : c.path;
    return `${what} (${c.change}; run by ${c.entry.runs})`;
  });
  return `changed files that run later, outside the sandbox: ${items.join("; ")}`;
}

/** Relative paths `pattern` names in `workspace`: a plain path even when missing, globs as found. */
function expand(workspace: string, pattern: string): string[] {
  if (pattern.endsWith("/")) return walk(workspace, pattern.slice(0, -1));
  let paths = [""];
  for (const part of pattern.split("/")) {
    if (!part.includes("*")) {
      paths = paths.map((p) => (p ? `${p}/${part}` : part));
      continue;
    }
    const matcher = globToRegExp(part);
    paths = paths.flatMap((p) =>
      list(join(workspace, p)).filter((n) => matcher.test(n)).map((n) => (p ? `${p}/${n}` : n))
    );
  }
  return paths;
}

/** Every file and link below `dir` (relative), at most MAX_FILES_PER_DIR, without following links. */
function walk(workspace: string, dir: string): string[] {
  const found: string[] = [];
  const pending = [dir];
  while (pending.length > 0 && found.length < MAX_FILES_PER_DIR) {
    const current = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(join(workspace, current), { withFileTypes: true });
    } catch {
      if (current === dir) found.push(dir); // a file (or nothing) where a directory is listed
      continue;
    }
    for (const e of entries) {
      const path = `${current}/${e.name}`;
      if (e.isDirectory()) pending.push(path);
      else found.push(path);
    }
  }
  return found.slice(0, MAX_FILES_PER_DIR);
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function identityOf(path: string): string | null {
  try {
    const st = lstatSync(path, { bigint: true });
    return `${st.ino}:${st.size}:${st.ctimeNs}:${st.mode}`;
  } catch {
    return null;
  }
}

function jsonPart(path: string, key: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return "";
  }
  try {
    return JSON.stringify((JSON.parse(text) as Record<string, unknown>)[key] ?? null);
  } catch {
    return text;
  }
}
