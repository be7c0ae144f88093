/** Spawning a wrapped command and waiting for it: the I/O half next to `wrapCommand`. */
import type { Denial } from "./proxy.ts";
import { exitStatus } from "./exit-status.ts";
import { timingMark } from "./timing.ts";
import type { WrappedCommand } from "./wrap.ts";

export interface SandboxRunResult {
  exitCode: number;
  /** Hosts the proxy refused during the run. */
  denials: Denial[];
  /** Collected output when the stream was "pipe". */
  stdout?: string;
  stderr?: string;
}

type Stdio = "inherit" | "pipe" | "ignore";

/** Runs `wrapped` with the given stdio, forwards SIGINT/SIGTERM/SIGHUP, always cleans up. */
export async function runWrapped(
  wrapped: WrappedCommand,
  stdio: [Stdio, Stdio, Stdio] = ["inherit", "inherit", "inherit"],
): Promise<SandboxRunResult> {
  const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((s) => [s, () => proc?.kill(s)] as const);
  let proc: ReturnType<typeof Bun.spawn> | undefined;
  try {
    proc = Bun.spawn(wrapped.argv, { env: wrapped.env, stdio: [...stdio, ...wrapped.extraStdio] });
    timingMark("run:spawned");
    wrapped.attach(proc as unknown as { stdio: Array<number | null | undefined> });
    for (const [signal, handler] of handlers) process.on(signal, handler);
    const [code, stdout, stderr] = await Promise.all([
      proc.exited,
      collect(proc.stdout),
      collect(proc.stderr),
    ]);
    timingMark("run:exited");
    return {
      exitCode: exitStatus(code, proc.signalCode),
      denials: [...(wrapped.network?.denials ?? [])],
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
