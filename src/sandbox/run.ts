/** Spawning a wrapped command and waiting for it: the I/O half next to `wrapCommand`. */
import type { Denial } from "./proxy.ts";
import { exitStatus } from "./exit-status.ts";
import type { WrappedCommand } from "./wrap.ts";

export interface SandboxRunResult {
  exitCode: number;
  /** Hosts the proxy refused during the run. */
  denials: Denial[];
}

type Stdio = "inherit" | "pipe" | "ignore";

/** Runs `wrapped` with the given stdio, forwards SIGINT/SIGTERM/SIGHUP, always cleans up. */
export async function runWrapped(
  wrapped: WrappedCommand,
  stdio: [Stdio, Stdio, Stdio] = ["inherit", "inherit", "inherit"],
): Promise<SandboxRunResult> {
  try {
    const proc = Bun.spawn(wrapped.argv, {
      env: wrapped.env,
      stdio: [...stdio, ...wrapped.extraStdio],
    });
    wrapped.attach(proc as unknown as { stdio: Array<number | null | undefined> });
    const forward = (signal: NodeJS.Signals) => () => proc.kill(signal);
    const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((s) => [s, forward(s)] as const);
    for (const [signal, handler] of handlers) process.on(signal, handler);
    const code = await proc.exited;
    for (const [signal, handler] of handlers) process.off(signal, handler);
    return { exitCode: exitStatus(code, proc.signalCode), denials: [...(wrapped.network?.denials ?? [])] };
  } finally {
    wrapped.cleanup();
  }
}
