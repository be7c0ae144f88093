/** Runs one command hook: JSON on stdin, a timeout, and whatever it printed. Never throws. */
import type { CommandHandler } from "./config.ts";
import { DEFAULT_HOOK_TIMEOUT_SECONDS } from "./config.ts";
import { errorMessage } from "../../tool/errors.ts";

export interface HookProcessResult {
  command: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when the hook could not be started at all. */
  spawnError?: string;
}

export async function runCommandHook(
  handler: CommandHandler,
  payload: unknown,
  options: { cwd: string; env: Record<string, string>; signal?: AbortSignal },
): Promise<HookProcessResult> {
  const timeoutMs = (handler.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS) * 1000;
  let proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
  try {
    proc = Bun.spawn(["sh", "-c", handler.command], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      // Its own process group, so a timeout stops the hook's children too (they hold its pipes open).
      detached: true,
    });
  } catch (error) {
    const message = errorMessage(error);
    return {
      command: handler.command,
      exitCode: null,
      stdout: "",
      stderr: "",
      timedOut: false,
      spawnError: message,
    };
  }
  let timedOut = false;
  const kill = () => killGroup(proc.pid);
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, timeoutMs);
  options.signal?.addEventListener("abort", kill, { once: true });
  try {
    // A hook that exits without reading stdin closes the pipe; that is not an error.
    proc.stdin.write(JSON.stringify(payload));
    await proc.stdin.end();
  } catch { /* the hook did not read its input */ }
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  options.signal?.removeEventListener("abort", kill);
  return { command: handler.command, exitCode: timedOut ? null : exitCode, stdout, stderr, timedOut };
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch { /* already gone */ }
}
