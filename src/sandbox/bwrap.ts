/** The bwrap command line for a mount plan. Pure: every path and descriptor comes in as data. */
import type { MountOp, MountPlan } from "./mount-plan.ts";

export interface BwrapOptions {
  bwrapPath: string;
  /** Working directory inside the sandbox. */
  cwd: string;
  /** Descriptor (in bwrap's process) carrying the seccomp program. */
  seccompFd: number;
  /**
   * Descriptor (in bwrap's process) per mount of the plan, same order: for a bind, the source opened
   * without following links (`pin.ts`); for a masked file, an empty stream bwrap copies. Unused for
   * a masked directory (a read-only tmpfs) and a private temp dir (a writable one).
   */
  mountFds: number[];
  /**
   * The private temp dir becomes a tmpfs of this size, mounted last over the plan's bind of it: it
   * cannot fill the host's disk, and it vanishes with the sandbox, even when toolrt is killed.
   */
  privateTmp?: { path: string; sizeBytes: number };
  /**
   * Device nodes bound over `--dev`'s (the host's), by descriptor (in bwrap's process): a command
   * running as the host's uid 0 gets private ones (`dev-nodes.ts`).
   */
  devNodes?: ReadonlyArray<{ target: string; fd: number }>;
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

/** Whether bwrap mounts `m` from a descriptor; a tmpfs it makes itself (`mask-dir`, `private-tmp`) takes none. */
export function mountTakesFd(m: MountOp): boolean {
  return m.op !== "mask-dir" && m.op !== "private-tmp";
}

/**
 * `bwrap ... --` (the command follows). The host's `/` is read-only; `/dev` and `/proc` are fresh.
 * Every bind takes its source by descriptor, so a path swapped for a symbolic link after planning
 * cannot redirect it; masks use nothing of the host's.
 */
export function bwrapArgs(plan: MountPlan, options: BwrapOptions): string[] {
  const args = baseBwrapArgs(options.bwrapPath);
  // bwrap has no --dev-bind-fd; the descriptor's /proc link is the source, resolved by bwrap itself.
  for (const { target, fd } of options.devNodes ?? []) args.push("--dev-bind", `/proc/self/fd/${fd}`, target);
  const argsOf: Record<MountOp["op"], (path: string, fd: string) => string[]> = {
    "bind": (path, fd) => ["--bind-fd", fd, path],
    "ro-bind": (path, fd) => ["--ro-bind-fd", fd, path],
    "mask-file": (path, fd) => ["--perms", "0444", "--ro-bind-data", fd, path],
    "mask-dir": (path) => ["--perms", "0555", "--tmpfs", path, "--remount-ro", path],
    "stub": (path, fd) => ["--perms", "0555", "--ro-bind-data", fd, path],
    "private-tmp": (path) => ["--perms", "1777", "--tmpfs", path],
    "show": (path, fd) => ["--ro-bind-fd", fd, path],
  };
  plan.mounts.forEach((m, i) => args.push(...argsOf[m.op](m.path, String(options.mountFds[i]))));
  if (options.privateTmp) {
    const { path, sizeBytes } = options.privateTmp;
    args.push("--size", String(sizeBytes), "--perms", "0700", "--tmpfs", path);
  }
  // Read-only once everything below them is in place, as the host's were: a write there fails
  // and is reported, rather than landing in a tmpfs that vanishes with the run.
  for (const m of plan.mounts) if (m.op === "private-tmp") args.push("--remount-ro", m.path);
  args.push("--seccomp", String(options.seccompFd), "--chdir", options.cwd, "--");
  return args;
}
