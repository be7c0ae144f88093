/** Is a sandbox usable on this machine, and if not, why not (in words a user can act on)? */
import { existsSync, readFileSync } from "node:fs";
import { type SeccompArch, seccompArchOf } from "./seccomp.ts";

export type SandboxAvailability =
  | {
    available: true;
    kind: "bwrap";
    bwrapPath: string;
    seccompArch: SeccompArch;
    prlimitPath: string | null;
    /** To leave root before bwrap starts (`run-as.ts`). */
    setprivPath: string | null;
  }
  | { available: true; kind: "sandbox-exec"; sandboxExecPath: string }
  | { available: false; reason: string };

let cached: SandboxAvailability | undefined;

/**
 * Checks once per process: binaries present, user namespaces not switched off, a seccomp filter for
 * the arch. On Linux no trial run (it would cost a bwrap start per process); if bwrap still cannot
 * set up, the run fails closed with bwrap's own message, which `explainSandboxFailure` recognizes.
 * On macOS a trial run of sandbox-exec (a few milliseconds), which fails inside another sandbox.
 */
export function detectSandbox(options: { refresh?: boolean } = {}): SandboxAvailability {
  if (cached && !options.refresh) return cached;
  cached = probe();
  return cached;
}

function probe(): SandboxAvailability {
  if (process.platform === "darwin") return darwinAvailability();
  if (process.platform !== "linux") {
    return { available: false, reason: `no sandbox for platform ${process.platform}` };
  }
  const bwrapPath = Bun.which("bwrap");
  if (!bwrapPath) {
    return {
      available: false,
      reason: "bubblewrap (bwrap) is not installed; install the bubblewrap package",
    };
  }
  const seccompArch = seccompArchOf();
  if (!seccompArch) {
    return { available: false, reason: `no seccomp filter for CPU architecture ${process.arch}` };
  }
  const blocked = userNamespacesBlocked();
  if (blocked) {
    return { available: false, reason: `bwrap cannot create a sandbox here: ${blocked}` };
  }
  return {
    available: true,
    kind: "bwrap",
    bwrapPath,
    seccompArch,
    prlimitPath: Bun.which("prlimit"),
    setprivPath: Bun.which("setpriv"),
  };
}

/**
 * macOS: sandbox-exec from /usr/bin only (one on the PATH could be anyone's), and a trial run, since
 * it cannot apply a profile inside another sandbox.
 */
export function darwinAvailability(
  path = "/usr/bin/sandbox-exec",
  exists: (path: string) => boolean = existsSync,
  trial: (path: string) => string | null = trialRun,
): SandboxAvailability {
  if (!exists(path)) return { available: false, reason: `sandbox-exec is missing from ${path}` };
  const failed = trial(path);
  return failed
    ? { available: false, reason: failed }
    : { available: true, kind: "sandbox-exec", sandboxExecPath: path };
}

/**
 * Whether sandbox-exec can apply a profile here: a trial run of a trivial one. It cannot inside
 * another Seatbelt sandbox (profiles do not nest: exit 71, "sandbox_apply: Operation not
 * permitted"), e.g. when toolrt itself runs under another agent's sandbox.
 */
export function trialRun(
  sandboxExecPath: string,
  run: (argv: string[]) => { exitCode: number; stderr: string } = spawnQuietly,
): string | null {
  const { exitCode, stderr } = run([
    sandboxExecPath,
    "-p",
    "(version 1)\n(allow default)\n",
    "--",
    "/usr/bin/true",
  ]);
  if (exitCode === 0) return null;
  const said = stderr.trim().split("\n")[0] ?? "";
  const nested = exitCode === 71 || /sandbox_apply/.test(said);
  return `sandbox-exec cannot apply a profile here (exit ${exitCode}${said ? `: ${said}` : ""})` +
    (nested
      ? "; toolrt is running inside another sandbox (Seatbelt profiles do not nest): run it outside that sandbox"
      : "");
}

function spawnQuietly(argv: string[]): { exitCode: number; stderr: string } {
  const proc = Bun.spawnSync(argv, { stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  return { exitCode: proc.exitCode ?? 1, stderr: proc.stderr.toString() };
}

/**
 * True inside a bwrap sandbox (toolrt's or another's): its pid namespace's first process is bwrap.
 * Sandboxes do not nest (the outer one forbids new user namespaces), so a run is refused instead.
 */
export function insideBwrap(readComm: () => string = () => readFileSync("/proc/1/comm", "utf8")): boolean {
  try {
    return readComm().trim() === "bwrap";
  } catch {
    return false;
  }
}

/** Why user namespaces are off for this user, from the sysctls that switch them off; null when on. */
function userNamespacesBlocked(): string | null {
  const sysctl = (path: string) => {
    try {
      return readFileSync(path, "utf8").trim();
    } catch {
      return null;
    }
  };
  if (sysctl("/proc/sys/user/max_user_namespaces") === "0") return "user.max_user_namespaces is 0";
  const isRoot = process.getuid?.() === 0;
  if (!isRoot && sysctl("/proc/sys/kernel/unprivileged_userns_clone") === "0") {
    return "kernel.unprivileged_userns_clone is 0 (unprivileged user namespaces are disabled)";
  }
  return null;
}
