/** Spawning a wrapped command and waiting for it: the I/O half next to `wrapCommand`. */
import type { Denial } from "./proxy.ts";
import type { Quarantined } from "./quarantine.ts";
import { exitStatus } from "./exit-status.ts";
import { timingMark } from "./timing.ts";
import type { WrappedCommand } from "./wrap.ts";

export interface SandboxRunResult {
  exitCode: number;
  /** Hosts the proxy refused during the run. */
  denials: Denial[];
  /** What the command left at protected paths, moved to quarantine after it ended. */
  quarantined: Quarantined[];
  /** Collected output when the stream was "pipe". */
  stdout?: string;
  stderr?: string;
}

type Stdio = "inherit" | "pipe" | "ignore";

/**
 * Runs `wrapped` with the given stdio, forwards SIGINT/SIGTERM/SIGHUP, always cleans up. The command
 * starts a session of its own: it never shares the caller's terminal session, so it cannot push
 * input into the user's shell (TIOCSTI needs the terminal to be the caller's controlling one), and
 * its whole process group can be signalled and, on macOS, ended with the run.
 */
export async function runWrapped(
  wrapped: WrappedCommand,
  stdio: [Stdio, Stdio, Stdio] = ["inherit", "inherit", "inherit"],
): Promise<SandboxRunResult> {
  const forward = (signal: NodeJS.Signals) => {
    try {
      if (proc) process.kill(-proc.pid, signal);
    } catch {
      // already gone
    }
  };
  const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((s) => [s, () => forward(s)] as const);
  let proc: ReturnType<typeof Bun.spawn> | undefined;
  try {
    proc = Bun.spawn(wrapped.argv, {
      env: wrapped.env,
      detached: true,
      stdio: [...stdio, ...wrapped.extraStdio],
    });
    timingMark("run:spawned");
    wrapped.attach(proc as unknown as { pid: number; stdio: Array<number | null | undefined> });
    for (const [signal, handler] of handlers) process.on(signal, handler);
    const [code, stdout, stderr] = await Promise.all([
      proc.exited,
      collect(proc.stdout),
      collect(proc.stderr),
    ]);
    timingMark("run:exited");
    await wrapped.cleanup();
    return {
      exitCode: exitStatus(code, proc.signalCode),
      denials: [...(wrapped.network?.denials ?? [])],
      quarantined: [...wrapped.quarantined],
      ...(stdout === undefined ? {} : { stdout }),
      ...(stderr === undefined ? {} : { stderr }),
    };
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler);
    await wrapped.cleanup();
    timingMark("run:cleaned");
  }
}

async function collect(stream: unknown): Promise<string | undefined> {
  return stream instanceof ReadableStream ? await new Response(stream).text() : undefined;
}
