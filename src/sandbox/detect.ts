/** Is a sandbox usable on this machine, and if not, why not (in words a user can act on)? */
import { existsSync } from "node:fs";
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

/** Probes once per process: binaries present, user namespaces usable, a seccomp filter for the arch. */
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
  const trial = Bun.spawnSync(
    [
      bwrapPath,
      "--unshare-user",
      "--unshare-net",
      "--ro-bind",
      "/",
      "/",
      "--proc",
      "/proc",
      "--",
      "/bin/true",
    ],
    { stdin: "ignore", stdout: "ignore", stderr: "pipe" },
  );
  if (trial.exitCode !== 0) {
    const why = trial.stderr.toString().trim().split("\n").pop() ?? "";
    return {
      available: false,
      reason: `bwrap cannot create a sandbox here (${why}); user namespaces may be disabled ` +
        "(sysctl kernel.unprivileged_userns_clone, user.max_user_namespaces) or blocked by AppArmor",
    };
  }
  return { available: true, kind: "bwrap", bwrapPath, seccompArch, prlimitPath: Bun.which("prlimit") };
}
