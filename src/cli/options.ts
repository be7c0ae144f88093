/**
 * The global options shared by every subcommand (see the CLI contract), as plain data. Kept apart
 * from the commander definitions (globals.ts) so that `toolrt hook` starts without loading commander.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { PermissionMode } from "../tool/types.ts";
import type { PoolMode } from "../pool/filter.ts";
import type { LoadOptions } from "../policy/load.ts";

export const PERMISSION_MODES = ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"] as const;
/** Pool-only modes: they shape which tools are offered, and judge calls as `default`. */
export const POOL_ONLY_MODES = ["simple", "coordinator"] as const;

export type CliMode = PermissionMode | (typeof POOL_ONLY_MODES)[number];

export interface GlobalOptions {
  /** The workspace root. */
  cwd: string;
  /** Where shell commands start when not in `cwd` (hook mode: the host's per-call working directory). */
  shellDir?: string;
  stateDir: string;
  policy: string[];
  allow: string[];
  ask: string[];
  deny: string[];
  mode: CliMode;
  color: boolean;
  mcpConfig: string[];
  claudeSettings: boolean;
  debug: boolean;
}

export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOOLRT_HOME || join(homedir(), ".local", "state", "toolrt");
}

/** The global options from parsed option values; `{}` gives the defaults. */
export function globalsFrom(o: Record<string, any>): GlobalOptions {
  return {
    cwd: resolve(o.cwd ?? process.cwd()),
    stateDir: resolve(o.stateDir ?? defaultStateDir()),
    policy: o.policy ?? [],
    allow: o.allow ?? [],
    ask: o.ask ?? [],
    deny: o.deny ?? [],
    mode: o.mode ?? "default",
    color: o.color !== false && !process.env.NO_COLOR && process.stdout.isTTY === true,
    mcpConfig: o.mcpConfig ?? [],
    claudeSettings: o.claudeSettings === true,
    debug: o.debug === true,
  };
}

export function poolModeOf(mode: CliMode): PoolMode {
  return mode === "plan" || mode === "simple" || mode === "coordinator" ? mode : "default";
}

export function permissionModeOf(mode: CliMode): PermissionMode {
  return mode === "simple" || mode === "coordinator" ? "default" : mode;
}

/** The policy sources the global options name (light: no runtime, so `toolrt hook` starts fast). */
export function loadOptionsOf(globals: GlobalOptions): LoadOptions {
  return {
    cwd: globals.cwd,
    stateDir: globals.stateDir,
    flagFiles: globals.policy,
    cliRules: { allow: globals.allow, ask: globals.ask, deny: globals.deny },
    mode: permissionModeOf(globals.mode),
    claudeSettings: globals.claudeSettings,
  };
}
