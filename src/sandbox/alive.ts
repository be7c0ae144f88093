import { readlinkSync } from "node:fs";

/** Whether a process id names a running process (of any user): the test for stale leases and cgroups. */
export function isAlive(pid: number): boolean {
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
