/**
 * Workspace trust: allow rules from a workspace's own files (project, local, Claude Code project
 * settings) apply only once a person trusted it with `toolrt trust`. Recorded in the state dir.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { writeJsonAtomically } from "./json-file.ts";
import { isInside } from "../tool/paths.ts";

export function trustFile(stateDir: string): string {
  return join(stateDir, "trust.json");
}

/** The trusted directories; a workspace inside one of them is trusted too. */
function trustedDirs(stateDir: string): string[] {
  let text: string;
  try {
    text = readFileSync(trustFile(stateDir), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const data = JSON.parse(text) as { trusted?: unknown };
  return Array.isArray(data.trusted) ? data.trusted.filter((d): d is string => typeof d === "string") : [];
}

export function isTrusted(stateDir: string, dir: string): boolean {
  const workspace = resolve(dir);
  return trustedDirs(stateDir).some((trusted) => isInside(workspace, trusted));
}

/** Trusts `dir` (or, with `revoke`, forgets it); returns whether anything changed. */
export function setTrust(stateDir: string, dir: string, revoke = false): boolean {
  const workspace = resolve(dir);
  const current = trustedDirs(stateDir);
  const next = revoke ? current.filter((d) => d !== workspace) : [...new Set([...current, workspace])];
  if (next.length === current.length && next.every((d, i) => d === current[i])) return false;
  writeJsonAtomically(trustFile(stateDir), { trusted: next.sort() });
  return true;
}
