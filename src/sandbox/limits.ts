/**
 * Process-count and memory caps. Preferred: a cgroup of its own (pids.max, memory.max or v1's
 * memory.limit_in_bytes), created below the caller's cgroup so outer limits still apply; it binds
 * root too. Where no cgroup is writable (most non-root users), `prlimit` inside the sandbox sets
 * RLIMIT_NPROC and RLIMIT_DATA after bwrap made the user namespace, so only the sandbox's own
 * processes count. RLIMIT_NPROC does not bind uid 0, so root without a writable cgroup gets no cap.
 */
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { leftoverOwnerGone, pidNamespace } from "./alive.ts";
import type { SandboxLimits } from "./profile.ts";

export interface CgroupMount {
  /** "2" for the unified hierarchy, else the v1 controllers of this mount. */
  version: 1 | 2;
  controllers: string[];
  mountPoint: string;
  /** The mount's root inside its hierarchy (not "/" in some containers). */
  root: string;
}

/** Cgroup mounts from /proc/self/mountinfo text. Pure. */
export function parseCgroupMounts(mountinfo: string): CgroupMount[] {
  const mounts: CgroupMount[] = [];
  for (const line of mountinfo.split("\n")) {
    const [left, right] = line.split(" - ");
    if (!left || !right) continue;
    const fields = left.split(" ");
    const [fstype, , superOptions = ""] = right.split(" ");
    const root = fields[3] ?? "/";
    const mountPoint = (fields[4] ?? "").replace(/\\040/g, " ");
    if (fstype === "cgroup2") mounts.push({ version: 2, controllers: [], mountPoint, root });
    if (fstype === "cgroup") {
      mounts.push({ version: 1, controllers: superOptions.split(","), mountPoint, root });
    }
  }
  return mounts;
}

/** The caller's cgroup path per v1 controller and for v2 ("" key), from /proc/self/cgroup. Pure. */
export function parseProcCgroup(text: string): Map<string, string> {
  const paths = new Map<string, string>();
  for (const line of text.trim().split("\n")) {
    const first = line.indexOf(":");
    const second = line.indexOf(":", first + 1);
    if (first < 0 || second < 0) continue;
    const path = line.slice(second + 1);
    for (const c of line.slice(first + 1, second).split(",")) paths.set(c, path);
  }
  return paths;
}

/** One limit file to write in a new cgroup directory. */
interface LimitWrite {
  dir: string;
  file: string;
  value: string;
}

export interface CgroupPlan {
  dirs: string[];
  writes: LimitWrite[];
  /** Per directory, the file a process writes "0" into to join it (see `cgroupLauncher`). */
  joins: string[];
  capsProcesses: boolean;
  capsMemory: boolean;
}

/** Which directories and files a fresh cgroup named `name` needs. Pure. */
export function planCgroup(
  mounts: CgroupMount[],
  ownPaths: Map<string, string>,
  limits: SandboxLimits,
  name: string,
): CgroupPlan {
  const dirFor = (mount: CgroupMount, path: string | undefined) => {
    if (path === undefined) return null;
    const inside = mount.root !== "/" && path.startsWith(mount.root) ? path.slice(mount.root.length) : path;
    return join(mount.mountPoint, inside, name);
  };
  const plan: CgroupPlan = { dirs: [], writes: [], joins: [], capsProcesses: false, capsMemory: false };
  const add = (dir: string, version: 1 | 2) => {
    if (plan.dirs.includes(dir)) return;
    plan.dirs.push(dir);
    plan.joins.push(join(dir, version === 1 ? "tasks" : "cgroup.procs"));
  };
  const pidsV1 = mounts.find((m) => m.version === 1 && m.controllers.includes("pids"));
  const memV1 = mounts.find((m) => m.version === 1 && m.controllers.includes("memory"));
  const v2 = mounts.find((m) => m.version === 2);
  const pidsDir = pidsV1 ? dirFor(pidsV1, ownPaths.get("pids")) : v2 ? dirFor(v2, ownPaths.get("")) : null;
  if (pidsDir) {
    add(pidsDir, pidsV1 ? 1 : 2);
    plan.writes.push({ dir: pidsDir, file: "pids.max", value: String(limits.maxProcesses) });
    plan.capsProcesses = true;
  }
  const memDir = memV1 ? dirFor(memV1, ownPaths.get("memory")) : pidsV1 ? null : pidsDir;
  if (memDir) {
    add(memDir, memV1 ? 1 : 2);
    const file = memV1 ? "memory.limit_in_bytes" : "memory.max";
    plan.writes.push({ dir: memDir, file, value: String(limits.maxMemoryBytes) });
    plan.capsMemory = true;
  }
  return plan;
}

export interface Cgroup {
  /** The files the launcher writes "0" into before exec'ing bwrap (`CgroupPlan.joins`). */
  joinFiles: string[];
  capsProcesses: boolean;
  capsMemory: boolean;
  /**
   * Removes the directories once their last process is gone, waiting without blocking (the last
   * processes of a pid namespace are reaped asynchronously); gives up after a while and leaves the
   * rest to `sweepStaleCgroups` of a later start. Resolves when done either way.
   */
  remove(): Promise<void>;
}

const CGROUP_PREFIX = "toolrt-sandbox-";
/**
 * `toolrt-sandbox-<pid namespace>-<pid of the creator>-<random>`: a later start tells whose it was,
 * and judges only its own pid namespace's (a pid means nothing in another, e.g. a container sharing
 * the hierarchy).
 */
const CGROUP_NAME = /^toolrt-sandbox-(\d+)-(\d+)-[0-9a-f]{8}$/;
const REMOVE_PATIENCE_MS = 2_000;

export const cgroupName = () =>
  `${CGROUP_PREFIX}${pidNamespace()}-${process.pid}-${crypto.randomUUID().slice(0, 8)}`;

/**
 * Creates the cgroup(s); returns null when this process may not (no writable hierarchy, controller
 * not enabled). Whatever was created is removed again on failure. Leftovers of dead toolrt
 * processes next to it are removed first.
 */
export function createCgroup(limits: SandboxLimits, name = cgroupName()): Cgroup | null {
  let plan: CgroupPlan;
  try {
    plan = planCgroup(
      parseCgroupMounts(readFileSync("/proc/self/mountinfo", "utf8")),
      parseProcCgroup(readFileSync("/proc/self/cgroup", "utf8")),
      limits,
      name,
    );
  } catch {
    return null;
  }
  sweepStaleCgroups(plan.dirs.map((dir) => dirname(dir)));
  const created: string[] = [];
  const remove = async () => {
    for (const dir of created.splice(0).reverse()) await removeCgroupDir(dir);
  };
  try {
    for (const dir of plan.dirs) {
      mkdirSync(dir);
      created.push(dir);
    }
    for (const w of plan.writes) writeFileSync(join(w.dir, w.file), w.value);
  } catch {
    void remove();
    return null;
  }
  if (!plan.capsProcesses) {
    void remove();
    return null;
  }
  return { joinFiles: plan.joins, capsProcesses: plan.capsProcesses, capsMemory: plan.capsMemory, remove };
}

/**
 * Removes the sandbox cgroups left below `parents` by toolrt processes of this pid namespace that are
 * gone (killed before their cleanup ran). rmdir only ever removes an empty cgroup, so a busy one stays.
 */
export function sweepStaleCgroups(parents: string[]): void {
  for (const parent of new Set(parents)) {
    let names: string[];
    try {
      names = readdirSync(parent).filter((n) => n.startsWith(CGROUP_PREFIX));
    } catch {
      continue;
    }
    for (const name of names) {
      const [, namespace, creator] = CGROUP_NAME.exec(name) ?? [];
      if (!leftoverOwnerGone(namespace, Number(creator))) continue;
      try {
        rmdirSync(join(parent, name));
      } catch {
        // still busy, or gone: a later sweep tries again
      }
    }
  }
}

/** rmdir, retried on EBUSY with a growing pause, never blocking the event loop. */
async function removeCgroupDir(dir: string): Promise<void> {
  const deadline = Date.now() + REMOVE_PATIENCE_MS;
  for (let pause = 1;; pause = Math.min(pause * 2, 50)) {
    try {
      rmdirSync(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EBUSY" || Date.now() > deadline) return;
    }
    await Bun.sleep(pause);
  }
}

/**
 * The launcher that puts itself into the cgroup(s), then execs the rest of its arguments; children
 * are born inside, so nothing of the sandbox ever runs uncapped. A failed write exits 125 before
 * anything runs.
 *
 * It writes "0" (itself) and, on cgroup v1, into `tasks` rather than `cgroup.procs`: moving the
 * calling thread alone skips the kernel's global threadgroup lock, whose first writer in a while
 * waits for an RCU grace period (measured: 12 ms against 26 µs). The shell is single-threaded, so
 * its one thread is the whole process. v2 has no such file for a domain cgroup (`cgroup.threads`
 * refuses a move between domains) and keeps `cgroup.procs`.
 */
export function cgroupLauncher(joinFiles: string[]): string[] {
  const script =
    'n=$1; shift; while [ "$n" -gt 0 ]; do echo 0 > "$1" || exit 125; shift; n=$((n-1)); done; ' +
    'exec "$@"';
  return ["/bin/sh", "-c", script, "toolrt-sandbox-cgroup", String(joinFiles.length), ...joinFiles];
}

/**
 * `prlimit` run inside the sandbox for the caps no cgroup gives (`covered`), and for CPU time, which
 * has no cgroup counterpart (cpu.max is a rate); empty when there is nothing to set.
 */
export function prlimitPrefix(
  prlimitPath: string,
  limits: SandboxLimits,
  covered: { processes: boolean; memory: boolean },
): string[] {
  const caps: string[] = [];
  if (!covered.processes) caps.push(`--nproc=${limits.maxProcesses}`);
  if (!covered.memory) caps.push(`--data=${limits.maxMemoryBytes}`);
  if (limits.maxCpuSeconds !== null) caps.push(`--cpu=${limits.maxCpuSeconds}`);
  return caps.length > 0 ? [prlimitPath, ...caps, "--"] : [];
}

/**
 * The wall-time limit: SIGKILL to bwrap (the spawned process, or what the cgroup launcher exec'd
 * into) after `seconds`; its pid-1 child dies with it (`--die-with-parent`) and takes every process
 * of the sandbox's pid namespace along. Host-side, so nothing inside can stop it. `kill` is the
 * spawn's own (it does nothing once the process is reaped, so a reused pid is never hit). Returns
 * the cancel.
 */
export function killAfter(kill: (signal: "SIGKILL") => void, seconds: number): () => void {
  const timer = setTimeout(() => {
    try {
      kill("SIGKILL");
    } catch {
      // already gone
    }
  }, seconds * 1000);
  timer.unref();
  return () => clearTimeout(timer);
}

const SIZE = /^(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?$/i;

/** `512M`, `2G`, `1.5GiB`, `4096` (powers of 1024) to bytes; null when not a size. Pure. */
export function parseSize(text: string): number | null {
  const match = SIZE.exec(text.trim());
  if (!match) return null;
  const power = "KMGT".indexOf(match[2]!.toUpperCase()) + 1;
  const bytes = Math.floor(Number(match[1]) * 1024 ** power);
  return bytes > 0 ? bytes : null;
}
