/**
 * Signals to whole process groups. Every process we start leads its own group (setsid), so a
 * signal to `-pid` reaches the command, its children and their children alike.
 */

/** Sends `signal` to the group led by `pid`; a group that is already gone is not an error. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

/** Whether any process is left in the group led by `pid` (the leader itself may be gone). */
export function isGroupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    // ESRCH: none left. EPERM: something of another user holds the group id; it is not ours to wait for.
    return false;
  }
}

const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Remembers a running group so that it is killed if toolrt itself exits: detached groups would
 * otherwise outlive us.
 */
export function trackGroup(pid: number): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const group of liveGroups) signalGroup(group, "SIGKILL");
    });
  }
  liveGroups.add(pid);
  return () => liveGroups.delete(pid);
}
