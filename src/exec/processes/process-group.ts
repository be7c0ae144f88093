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
