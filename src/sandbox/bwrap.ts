/** The bwrap command line for a mount plan. Pure: every path and descriptor comes in as data. */
import type { MountOp, MountPlan } from "./mount-plan.ts";

export interface BwrapOptions {
  bwrapPath: string;
  /** Working directory inside the sandbox. */
  cwd: string;
  /** An empty, read-only host file used to mask read-denied files. */
  emptyFile: string;
  /** An empty host directory used to mask read-denied directories. */
  emptyDir: string;
  /** Descriptor (in bwrap's process) carrying the seccomp program. */
  seccompFd: number;
  /**
   * The private temp dir becomes a tmpfs of this size, mounted last over the plan's bind of it: it
   * cannot fill the host's disk, and it vanishes with the sandbox, even when toolrt is killed.
   */
  privateTmp?: { path: string; sizeBytes: number };
}

/** Namespaces and hardening: own user, pid, ipc, uts and network namespaces; no capabilities. */
const ISOLATION_ARGS: readonly string[] = [
  "--die-with-parent",
  "--new-session",
  "--unshare-user",
  "--disable-userns",
  "--unshare-pid",
  "--unshare-ipc",
  "--unshare-uts",
  "--unshare-net",
  "--cap-drop",
  "ALL",
];

/** The start every sandbox shares: namespaces and capabilities, `/` read-only, fresh `/dev` and `/proc`. */
export function baseBwrapArgs(bwrapPath: string): string[] {
  return [bwrapPath, ...ISOLATION_ARGS, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
}

/** `bwrap ... --` (the command follows). The host's `/` is read-only; `/dev` and `/proc` are fresh. */
export function bwrapArgs(plan: MountPlan, options: BwrapOptions): string[] {
  const args = baseBwrapArgs(options.bwrapPath);
  const sourceOf: Record<MountOp["op"], (path: string) => string> = {
    "bind": (path) => path,
    "ro-bind": (path) => path,
    "mask-file": () => options.emptyFile,
    "mask-dir": () => options.emptyDir,
  };
  for (const m of plan.mounts) {
    args.push(m.op === "bind" ? "--bind" : "--ro-bind", sourceOf[m.op](m.path), m.path);
  }
  if (options.privateTmp) {
    const { path, sizeBytes } = options.privateTmp;
    args.push("--size", String(sizeBytes), "--perms", "0700", "--tmpfs", path);
  }
  args.push("--seccomp", String(options.seccompFd), "--chdir", options.cwd, "--");
  return args;
}
