/**
 * Which plugins are enabled in which workspace, recorded in the state dir
 * (`plugins-enabled.json`: workspace path → plugin name → true/false). A plugin nobody enabled
 * is off: installing code is not the same as letting it run in every repository.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeJsonAtomically } from "../policy/json-file.ts";

type Record_ = Record<string, Record<string, boolean>>;

function recordFile(stateDir: string): string {
  return join(stateDir, "plugins-enabled.json");
}

function readRecord(stateDir: string): Record_ {
  try {
    const parsed = JSON.parse(readFileSync(recordFile(stateDir), "utf8"));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch {
    // Missing or unreadable: nothing enabled, which is the safe reading.
    return {};
  }
}

/** The plugins switched on or off for `workspace`; absent names are off. */
export function enabledIn(stateDir: string, workspace: string): Map<string, boolean> {
  const entries = Object.entries(readRecord(stateDir)[workspace] ?? {});
  return new Map(entries.filter(([, on]) => typeof on === "boolean"));
}

export function setEnabled(stateDir: string, workspace: string, name: string, enabled: boolean): void {
  const record = readRecord(stateDir);
  record[workspace] = { ...record[workspace], [name]: enabled };
  writeJsonAtomically(recordFile(stateDir), record);
}
