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
  }
  | { available: true; kind: "sandbox-exec"; sandboxExecPath: string }
  | { available: false; reason: string };

let cached: SandboxAvailability | undefined;

/**
 * Checks once per process: binaries present, user namespaces not switched off, a seccomp filter for
 * the arch. No trial run (it would cost a bwrap start per process); if bwrap still cannot set up,
 * the run fails closed with bwrap's own message, which `explainSandboxFailure` recognizes.
 */
export function detectSandbox(options: { refresh?: boolean } = {}): SandboxAvailability {
  if (cached && !options.refresh) return cached;
  cached = probe();
  return cached;
}

function probe(): SandboxAvailability {
  if (process.platform === "darwin") {
    const path = "/usr/bin/sandbox-exec";
    return existsSync(path)
      ? { available: true, kind: "sandbox-exec", sandboxExecPath: path }
      : { available: false, reason: "sandbox-exec is missing from /usr/bin" };
  }
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
  return { available: true, kind: "bwrap", bwrapPath, seccompArch, prlimitPath: Bun.which("prlimit") };
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
