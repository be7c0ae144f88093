/** Settings shared by the tools that start processes (Bash, ExecCommand) and read them (Task*, WriteStdin). */
import { type LaunchWrapper, passThrough } from "../../exec/processes/launch.ts";
import { type CommandSemantics, defaultSemantics } from "./analysis.ts";

export interface ProcessToolOptions {
  /** Read-only classification and exit-code meaning: the Bash analyzer's. */
  semantics?: CommandSemantics;
  /** Rewrites argv/env before spawning: the sandbox's. */
  wrapLaunch?: LaunchWrapper;
  /** Between SIGTERM and SIGKILL when a process group is stopped. */
  killGraceMs?: number;
}

export function resolveProcessOptions(options: ProcessToolOptions): Required<ProcessToolOptions> {
  return {
    semantics: options.semantics ?? defaultSemantics,
    wrapLaunch: options.wrapLaunch ?? passThrough,
    killGraceMs: options.killGraceMs ?? 2_000,
  };
}
