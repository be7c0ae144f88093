/** Runs the CLI from source in a child process, as a user would. */
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../src/cli/main.ts");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; stdin?: string } = {},
): CliRun {
  const proc = Bun.spawnSync([process.execPath, MAIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: "1", ...options.env },
    stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
  });
  return { code: proc.exitCode ?? -1, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}

/**
 * Like `runCli`, without blocking this process, so a server the test runs (a fake API, an OTLP
 * receiver) can answer the child. `exactEnv` gives the child `env` alone, not added to this one's.
 */
export async function runCliAsync(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; stdin?: string; exactEnv?: boolean } = {},
): Promise<CliRun> {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    cwd: options.cwd,
    env: options.exactEnv ? options.env : { ...process.env, NO_COLOR: "1", ...options.env },
    stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  return await outputOf(proc);
}

/** A spawned process's exit code and whole output, read while it runs (no pipe fills up). */
export async function outputOf(
  proc: { stdout: ReadableStream<Uint8Array>; stderr: ReadableStream<Uint8Array>; exited: Promise<number> },
): Promise<CliRun> {
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/**
 * A fresh temp dir (real path) and an environment for the CLI rooted in it: its own HOME, config,
 * state dir and no managed policy, so a run sees only the rules a test gives. HOME is created.
 */
export function isolatedCliEnv(prefix: string): { base: string; env: Record<string, string> } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const env = {
    HOME: join(base, "home"),
    XDG_CONFIG_HOME: join(base, "home", ".config"),
    TOOLRT_HOME: join(base, "state"),
    TOOLRT_MANAGED_POLICY: join(base, "no-managed-policy"),
  };
  mkdirSync(env.HOME, { recursive: true });
  return { base, env };
}
