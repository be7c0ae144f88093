/**
 * What gets spawned: argv, environment and working directory, built as plain data so that one seam
 * (a `LaunchWrapper`, e.g. the sandbox) can rewrite it before anything runs.
 */

export interface Launch {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
}

/** What a spawned process offers a wrapper: its stdio, extra descriptors as the parent's fds. */
export interface SpawnedStdio {
  pid?: number;
  /** The spawn's own kill (a no-op once the process has been reaped). */
  kill?: (signal: "SIGKILL") => void;
  stdio: Array<number | null | undefined>;
}

export interface WrappedLaunch extends Launch {
  /** Runs once the process has ended (e.g. removes a sandbox profile file). */
  cleanup?: () => void | Promise<void>;
  /** Stdio entries from descriptor 3 on (the sandbox's seccomp program, its network channel). */
  extraStdio?: Array<number | "pipe">;
  /** Called right after the spawn (e.g. hands the network channel's parent end to the proxy). */
  attach?: (spawned: SpawnedStdio) => void;
  /** Sentences the model should read with the result (a sandbox request ignored, a run without one). */
  notices?: string[];
  /**
   * Sentences for the model once the process has ended (files that run later which the command
   * changed); call it after the end, once.
   */
  afterRun?: () => string[];
  /** Why the command failed when the wrapper is the cause (a sandbox denial); null when it is not. */
  explainFailure?: (failure: { output: string; exitCode: number }) => string | null;
  /**
   * After a failure the wrapper caused: asks a person for the narrow exception (a path to write);
   * on yes, what the command's second run needs. Absent or null: nothing to retry.
   */
  askToRetry?: (
    failure: { output: string; exitCode: number },
  ) => Promise<{ allowWrite: string[]; notice: string } | null>;
}

export interface LaunchRequest {
  /** The shell command as the model wrote it (excluded-command prefixes are matched on it). */
  command: string;
  /** The model asked to run outside the sandbox (`dangerouslyDisableSandbox`); the wrapper decides. */
  unsandboxed: boolean;
  /** Paths a person allowed writing for this one run (after the sandbox blocked them). */
  grantedWrites?: string[];
}

/** Transforms a launch before spawning. The sandbox plugs in here; the default passes it through. */
export type LaunchWrapper = (
  launch: Launch,
  request: LaunchRequest,
) => WrappedLaunch | Promise<WrappedLaunch>;

export const passThrough: LaunchWrapper = (launch) => launch;

export type TerminalMode = "pipes" | "tty";

/**
 * `bash -c command`, non-login and without rc files: the same command gives the same result
 * whatever the user's shell start-up files do.
 */
export function bashLaunch(command: string, cwd: string, mode: TerminalMode = "pipes"): Launch {
  return { argv: [bashPath(), "--noprofile", "--norc", "-c", command], env: stableEnvironment(mode), cwd };
}

/**
 * The parent's environment minus what would make runs differ or hang: variables bash sources as
 * start-up files, exported functions, pagers and credential prompts that wait for a person.
 */
export function stableEnvironment(
  mode: TerminalMode,
  base: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || key === "BASH_ENV" || key === "ENV" || key.startsWith("BASH_FUNC_")) continue;
    env[key] = value;
  }
  env.PAGER = "cat";
  env.GIT_PAGER = "cat";
  env.GIT_TERMINAL_PROMPT = "0";
  env.TERM = mode === "tty" ? "xterm-256color" : "dumb";
  env.TOOLRT = "1";
  return env;
}

let cachedBash: string | undefined;

function bashPath(): string {
  return (cachedBash ??= Bun.which("bash") ?? "/bin/bash");
}
