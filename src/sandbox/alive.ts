import { readlinkSync } from "node:fs";

/** Whether a process id names a running process (of any user): the test for stale leases and cgroups. */
function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

let ownPidNamespace: string | undefined;

/**
 * This process's pid namespace (its inode number): names of leftovers carry it, since a pid means
 * nothing in another namespace (e.g. a container sharing /tmp or the cgroup hierarchy).
 */
export function pidNamespace(): string {
  if (ownPidNamespace === undefined) {
    try {
      ownPidNamespace = /\d+/.exec(readlinkSync("/proc/self/ns/pid"))?.[0] ?? "0";
    } catch {
      ownPidNamespace = "0";
    }
  }
  return ownPidNamespace;
}

/**
 * Whether a leftover whose name carries `namespace` and `pid` (this process's `pidNamespace()` and
 * pid when it was made) belongs to a toolrt process of this pid namespace that is gone.
 */
export function leftoverOwnerGone(namespace: string | undefined, pid: number): boolean {
  return namespace === pidNamespace() && !!pid && pid !== process.pid && !isAlive(pid);
}
