/**
 * `toolrt hook install|uninstall`: adds or removes toolrt's entries in a host's hook settings
 * file. Merges into what is there (other keys and other hooks stay as they are), keeps a backup of
 * the previous file, and does nothing when the file already says what it should.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import type { InstallTarget } from "./install-targets.ts";

export interface InstallResult {
  file: string;
  changed: boolean;
  /** The copy of the file as it was, when there was one and it changed. */
  backup?: string;
  /** Uninstall deleted the file: nothing but toolrt's entries was in it. */
  removed?: true;
}

type Settings = Record<string, unknown> & { hooks?: Record<string, unknown[]> };

/** Adds toolrt's entries, replacing earlier toolrt entries for the same events. */
export function installHooks(target: InstallTarget, isOurs: (entry: unknown) => boolean): InstallResult {
  return rewrite(target.file, target.skeleton, (settings) => {
    const hooks = settings.hooks ??= {};
    for (const [event, entry] of Object.entries(target.entries)) {
      hooks[event] = [...listAt(hooks, event).filter((e) => !isOurs(e)), entry];
    }
  });
}

/**
 * Removes toolrt's entries; events left with no entries are removed too. A file that held nothing
 * but them (what install writes into a new file) is deleted, and so is its backup when that held
 * nothing else either; a file with anything of the user's stays.
 */
export function uninstallHooks(target: InstallTarget, isOurs: (entry: unknown) => boolean): InstallResult {
  const unchanged = { file: target.file, changed: false };
  if (!existsSync(target.file) || readFileSync(target.file, "utf8").trim() === "") return unchanged;
  const removeOurs = (settings: Settings) => {
    const hooks = settings.hooks;
    if (!hooks) return;
    for (const event of Object.keys(target.entries)) {
      if (!Array.isArray(hooks[event])) continue;
      const kept = hooks[event].filter((e) => !isOurs(e));
      if (kept.length > 0) hooks[event] = kept;
      else delete hooks[event];
    }
    if (Object.keys(hooks).length === 0) delete settings.hooks;
  };
  const result = rewrite(target.file, {}, removeOurs);
  if (!result.changed || !isBare(readSettings(target.file), target.skeleton)) return result;
  rmSync(target.file);
  const backup = `${target.file}.toolrt-backup`;
  if (existsSync(backup)) {
    const saved = readSettings(backup);
    removeOurs(saved);
    if (isBare(saved, target.skeleton)) rmSync(backup);
  }
  return { file: target.file, changed: true, removed: true };
}

/** Nothing but what a new file starts with (`{}`, or `{"version": 1}` for Cursor and Copilot CLI). */
function isBare(settings: Settings, skeleton: Record<string, unknown>): boolean {
  return JSON.stringify(settings) === JSON.stringify(skeleton) || Object.keys(settings).length === 0;
}

function readSettings(file: string): Settings {
  return parseSettings(file, readFileSync(file, "utf8"));
}

/** Whether a hook entry runs this command (at any depth: `hooks[].command`, `bash`, `command`). */
export function runsCommand(entry: unknown, matches: (command: string) => boolean): boolean {
  if (typeof entry === "string") return matches(entry);
  if (Array.isArray(entry)) return entry.some((e) => runsCommand(e, matches));
  if (entry !== null && typeof entry === "object") {
    return Object.values(entry).some((e) => runsCommand(e, matches));
  }
  return false;
}

function listAt(hooks: Record<string, unknown[]>, event: string): unknown[] {
  const list = hooks[event];
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new Error(`hooks.${event} is not a list; not touching the file`);
  return list;
}

function rewrite(
  file: string,
  skeleton: Record<string, unknown>,
  change: (settings: Settings) => void,
): InstallResult {
  const text = existsSync(file) ? readFileSync(file, "utf8") : undefined;
  // An empty file (made by hand, or an editor's new file) holds no settings: it starts as a new one.
  const before = text?.trim() ? text : undefined;
  const settings = before === undefined ? structuredClone(skeleton) as Settings : parseSettings(file, before);
  const hooks = settings.hooks;
  if (hooks !== undefined && (hooks === null || typeof hooks !== "object" || Array.isArray(hooks))) {
    throw new Error(`${file}: "hooks" is not an object; not touching the file`);
  }
  change(settings);
  const after = `${JSON.stringify(settings, null, 2)}\n`;
  if (before !== undefined && JSON.stringify(JSON.parse(before)) === JSON.stringify(settings)) {
    return { file, changed: false };
  }
  mkdirSync(dirname(file), { recursive: true });
  let backup: string | undefined;
  if (before !== undefined) {
    backup = `${file}.toolrt-backup`;
    copyFileSync(file, backup);
  }
  const temporary = `${file}.toolrt-${process.pid}`;
  writeFileSync(temporary, after);
  renameSync(temporary, file);
  return { file, changed: true, ...(backup ? { backup } : {}) };
}

function parseSettings(file: string, text: string): Settings {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); not touching it`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`${file} does not hold a JSON object; not touching it`);
  }
  return value as Settings;
}
