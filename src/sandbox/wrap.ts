/**
 * Turning a profile and a command into something to spawn: `wrapCommand` does the I/O a run needs
 * (index refresh, mount sources pinned by descriptor, cgroup, proxy) and returns the argv,
 * environment and extra descriptors, plus `cleanup`, which quarantines what the command left at
 * protected paths. The builders it calls (mount plan, bwrap args, SBPL) are pure.
 */
import { chmodSync, closeSync, mkdirSync, realpathSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { bwrapArgs, mountTakesFd } from "./bwrap.ts";
import { DevNodesError, devNodesForRun, type PrivateDevNode } from "./dev-nodes.ts";
import { detectSandbox, insideBwrap, type SandboxAvailability } from "./detect.ts";
import { scrubEnv } from "./env.ts";
import { type Cgroup, cgroupLauncher, createCgroup, killAfter, prlimitPrefix } from "./limits.ts";
import { gitLayout } from "./git-dirs.ts";
import { gitEntries, planOnDisk, sandboxStateDir, visibleForCommand } from "./linux-plan.ts";
import type { MountPlan } from "./mount-plan.ts";
import { entryKind } from "./paths.ts";
import { PinError, pinPath } from "./pin.ts";
import { addStubs, planProgramMasks, type ProgramMask } from "./program-masks.ts";
import type { SandboxProfile } from "./profile.ts";
import { quarantineAfterRun, type Quarantined } from "./quarantine.ts";
import { makeRunDir } from "./run-dir.ts";
import { sandboxUser, searchableBy, setprivPrefix } from "./run-as.ts";
import { TreeIndexes } from "./scan.ts";
import type { Revalidation } from "./tree-watch.ts";
import { FullScanner, type TreeScanner } from "./watch-service.ts";
import { seccompProgram } from "./seccomp.ts";
import type { NetworkSession } from "./network.ts";
import type { HostAsker } from "./proxy.ts";
import { timingMark } from "./timing.ts";

/** No sandbox on this machine (bwrap missing, user namespaces off ...). */
export class SandboxUnavailableError extends Error {
  override name = "SandboxUnavailableError";
}

/** A sandbox exists but this profile cannot be enforced safely here; nothing was run. */
export class SandboxRefusedError extends Error {
  override name = "SandboxRefusedError";
  constructor(readonly reasons: string[]) {
    super(`the sandbox refuses to run: ${reasons.join("; ")}`);
  }
}

export interface WrapOptions {
  /** Working directory of the command (inside the sandbox, the same path). */
  cwd: string;
  env?: Record<string, string | undefined>;
  availability?: SandboxAvailability;
  /**
   * A cgroup the caller owns and shares between its runs (null: none could be made); the run
   * neither creates nor removes one then. Absent: the run makes its own and removes it in cleanup.
   */
  cgroup?: Cgroup | null;
  /**
   * Puts a host not on the allow-list to a person while the command runs (interactive sessions).
   * With it, the network starts even when `allowNet` is empty; without it, such hosts are denied.
   */
  askHost?: HostAsker;
  /** toolrt's state dir (default: $TOOLRT_HOME or ~/.local/state/toolrt): indexes and quarantine. */
  stateDir?: string;
  /**
   * Where the trees' scans come from (Linux): a change watcher (`watch-service.ts`), or by default
   * the indexes in the state dir, every directory looked at.
   */
  scanner?: TreeScanner;
  /** Programs rules name that the command may not start (Linux; `program-masks.ts`). */
  programMasks?: readonly ProgramMask[];
}

export interface WrappedCommand {
  argv: string[];
  env: Record<string, string>;
  /** Spawn stdio entries from index 3 on (the seccomp program, the network channel, mount sources). */
  extraStdio: Array<number | "pipe">;
  /** Names of the environment variables removed (never their values). */
  removedEnv: string[];
  /** The Linux mount plan (null on macOS), for explanations and audits. */
  plan: MountPlan | null;
  /** How the trees were revalidated for the plan (null on macOS). */
  revalidation: Revalidation | null;
  network: NetworkSession | null;
  /** macOS: the tag of this run's denials in the system log (`seatbelt.ts` reads them); else null. */
  logTag: string | null;
  /** How the process count is capped, for the record: "cgroup" or "rlimit". */
  processCap: string;
  /**
   * Must be called right after the spawn (bwrap waits for it): writes the seccomp program and hands
   * the network channel to the proxy (extraStdio's "pipe" entries); on macOS takes its pid, to end
   * what is left of its process group in cleanup (spawn it in a new session).
   */
  attach(
    spawned: { pid?: number; kill?: (signal: "SIGKILL") => void; stdio: Array<number | null | undefined> },
  ): void;
  /** Filled by `cleanup`: what the command left at protected paths, moved to quarantine. */
  quarantined: Quarantined[];
  /**
   * Quarantines what the command left at protected paths (Linux), stops the proxy (on macOS, first
   * kills what is left of the command's process group); removes the run's temp dir (which the command may have filled) and its
   * own cgroup (once the last process is reaped) without blocking.
   * Resolves when all is done; never rejects. Idempotent.
   */
  cleanup(): Promise<void>;
}

/**
 * Prepares `argv` to run under `profile`. Throws SandboxUnavailableError when there is no sandbox and
 * SandboxRefusedError when the profile cannot be enforced; the caller decides what that means.
 *
 * @example
 * const wrapped = await wrapCommand(profile, ["npm", "test"], { cwd: profile.workspace });
 * const proc = Bun.spawn(wrapped.argv, { env: wrapped.env, stdio: ["inherit", "inherit", "inherit", ...wrapped.extraStdio] });
 * wrapped.attach(proc); await proc.exited; await wrapped.cleanup();
 */
export async function wrapCommand(
  profile: SandboxProfile,
  argv: string[],
  options: WrapOptions,
): Promise<WrappedCommand> {
  const availability = options.availability ?? detectSandbox();
  if (!availability.available) throw new SandboxUnavailableError(availability.reason);
  if (argv.length === 0) throw new SandboxRefusedError(["no command given"]);
  const cleanups: Array<() => void | Promise<void>> = [];
  const cleanup = async () => {
    const pending: Array<Promise<void>> = [];
    for (const fn of cleanups.splice(0).reverse()) {
      try {
        const done = fn();
        if (done) pending.push(done.catch(() => {}));
      } catch {
        // best effort: one failed step must not keep the others from running
      }
    }
    await Promise.all(pending);
  };
  try {
    const runDir = makeRunDir();
    // On Linux a few small files ($TMPDIR is a tmpfs inside the sandbox): removed at once, without
    // loading node:fs/promises. On macOS $TMPDIR is here, as full as the command left it.
    cleanups.push(
      availability.kind === "bwrap"
        ? () => rmSync(runDir, { recursive: true, force: true })
        : async () => await (await import("node:fs/promises")).rm(runDir, { recursive: true, force: true }),
    );
    const tempDir = join(runDir, "tmp");
    mkdirSync(tempDir, { mode: 0o700 });
    const scrubbed = scrubEnv(options.env ?? process.env, profile.unsetEnvPatterns);
    timingMark("wrap:env");
    const env = { ...scrubbed.env, TMPDIR: tempDir, TMP: tempDir, TEMP: tempDir };
    // The proxy's modules load only for a run that has network at all.
    const network = profile.allowNet.length > 0 || options.askHost
      ? await (await import("./network.ts")).startNetwork(profile.allowNet, availability, options.askHost)
      : null;
    if (network) {
      cleanups.push(() => network.stop());
      Object.assign(env, network.env);
    }
    const base = { env, removedEnv: scrubbed.removed, network, cleanup, quarantined: [] as Quarantined[] };
    if (availability.kind === "sandbox-exec") {
      const { killGroup, seatbeltCommand } = await import("./seatbelt.ts"); // macOS's modules, there only
      const command = seatbeltCommand(profile, argv, {
        sandboxExecPath: availability.sandboxExecPath,
        tempDir: realpathSync(tempDir),
        proxyPorts: network?.hostPorts ?? [],
        indexes: new TreeIndexes(join(sandboxStateDir(options.stateDir), "index")),
      });
      if (command.problems.length) throw new SandboxRefusedError(command.problems);
      // No pid namespace on macOS: what the command leaves running in its group ends with the run.
      let group: number | undefined;
      cleanups.push(() => {
        if (group) killGroup(group);
      });
      return {
        ...base,
        argv: command.argv,
        extraStdio: [],
        plan: null,
        revalidation: null,
        processCap: "rlimit",
        logTag: command.tag,
        attach: (spawned) => void (group = spawned.pid),
      };
    }
    return await linuxCommand(profile, argv, options, availability, runDir, tempDir, cleanups, base);
  } catch (error) {
    await cleanup();
    throw error;
  }
}

async function linuxCommand(
  profile: SandboxProfile,
  argv: string[],
  options: WrapOptions,
  availability: Extract<SandboxAvailability, { kind: "bwrap" }>,
  runDir: string,
  tempDir: string,
  cleanups: Array<() => void | Promise<void>>,
  base: Pick<WrappedCommand, "env" | "removedEnv" | "network" | "cleanup" | "quarantined">,
): Promise<WrappedCommand> {
  if (insideBwrap()) {
    throw new SandboxRefusedError([
      "this already runs inside a bwrap sandbox (toolrt's, or another's) and sandboxes do not nest: " +
      "run the command in the outer one directly",
    ]);
  }
  const state = sandboxStateDir(options.stateDir);
  const scanner: TreeScanner = options.scanner ??
    new FullScanner(new TreeIndexes(join(state, "index")), "no change watcher was given to this run");
  const scanned = await scanner.scan(profile.writableRoots, profile.denyRead);
  timingMark(`wrap:scanned(${scanned.revalidation.mode})`);
  // What toolrt itself starts inside (prlimit, the network bridge, the command's shell) must run.
  const bridge = base.network?.bridgeCommand(4) ?? [];
  const starts = [availability.prlimitPath, bridge[0], argv[0]].filter((s): s is string =>
    typeof s === "string"
  );
  const { plan, git } = planOnDisk(profile, tempDir, {
    stateDir: options.stateDir,
    scan: scanned.scan,
    // Only a private /tmp hides anything (the default shows the host's): otherwise nothing to resolve.
    // The bridge's second word is the CLI's entry file when toolrt runs from source.
    ...(profile.privateTmp
      ? { visible: visibleForCommand(options.cwd, base.env, [...starts, ...bridge.slice(1, 2)]) }
      : {}),
  });
  timingMark("wrap:plan");
  if (options.programMasks?.length) {
    addStubs(
      plan,
      planProgramMasks(options.programMasks, {
        pathEnv: base.env.PATH,
        exempt: starts,
        hidden: [...profile.denyRead, state],
      }),
    );
    timingMark("wrap:program-masks");
  }
  if (plan.refusals.length) throw new SandboxRefusedError(plan.refusals);
  cleanups.unshift(async () => {
    timingMark("cleanup:start");
    const after = await scanner.gitEntries(profile.writableRoots, scanned.generation);
    timingMark("cleanup:scan");
    // The watcher saw no event in the trees during the run: nothing was created at a protected path,
    // no repository made, no link repointed (each of these is an event).
    if (after.unchanged) return await scanner.finish?.();
    const entriesAfter = gitEntries(after, profile.writableRoots);
    const moved = quarantineAfterRun({
      roots: profile.writableRoots,
      absent: plan.absent,
      pointers: git.pointers,
      gitDirsBefore: new Set(git.gitDirs),
      gitDirsAfter: gitLayout(entriesAfter, profile.writableRoots).gitDirs,
      quarantineDir: join(state, "quarantine", runId()),
    });
    base.quarantined.push(...moved);
    timingMark("cleanup:quarantine");
    await scanner.finish?.(); // a client starts a watcher now, from the index this run left
  });

  let cgroup = options.cgroup;
  if (cgroup === undefined) {
    const own = createCgroup(profile.limits);
    if (own) cleanups.push(() => own.remove());
    cgroup = own;
  }
  timingMark("wrap:cgroup");
  const isRoot = process.getuid?.() === 0;
  if (!cgroup && isRoot) {
    throw new SandboxRefusedError([
      "no process cap: running as root without a writable pids cgroup (RLIMIT_NPROC does not bind root)",
    ]);
  }
  const rlimits = prlimitPrefix(availability.prlimitPath ?? "prlimit", profile.limits, {
    processes: cgroup !== null,
    memory: cgroup?.capsMemory === true,
  });
  if (rlimits.length > 0 && !availability.prlimitPath) {
    throw new SandboxRefusedError([
      `no prlimit(1) (util-linux) to set ${rlimits.slice(1, -1).join(" ")}: no writable cgroup covers them`,
    ]);
  }
  const user = sandboxUser(profile);
  if (user && !availability.setprivPath) {
    throw new SandboxRefusedError([
      `toolrt runs as root and the command should run as the workspace owner (uid ${user.uid}), but ` +
      "setpriv(1) (util-linux) is missing: install it, or set the sandbox's runAsRoot",
    ]);
  }
  if (user) {
    if (!searchableBy(user, join(profile.workspace, "."))) {
      throw new SandboxRefusedError([
        `toolrt runs as root and the command should run as the workspace owner (uid ${user.uid}), who ` +
        `cannot reach ${profile.workspace} (a directory above it is closed to that uid): open it, or ` +
        "set the sandbox's runAsRoot",
      ]);
    }
    chmodSync(runDir, 0o711); // bwrap, as that user, reaches the bind sources in it
    base.env.HOME = user.home ?? tempDir;
    // Masks and binds where that uid cannot reach are moot, and bwrap, as that uid, could not make them.
    plan.mounts = plan.mounts.filter((m) => searchableBy(user, m.path));
  }
  // Descriptors from 3 on in bwrap: the seccomp program, the network channel, the private device
  // nodes, one per mount.
  const extraStdio: Array<number | "pipe"> = ["pipe"];
  if (base.network) extraStdio.push("pipe");
  let devNodes: PrivateDevNode[] = [];
  try {
    if (isRoot && !user) {
      devNodes = devNodesForRun(runDir, state, cleanups).nodes;
      timingMark("wrap:dev-nodes");
    }
  } catch (error) {
    throw error instanceof DevNodesError ? new SandboxRefusedError([error.message]) : error;
  }
  const devNodeFds = devNodes.map(({ target, fd }) => {
    extraStdio.push(fd);
    return { target, fd: 2 + extraStdio.length };
  });
  const mountFds: number[] = [];
  /** What to write to each stub's stream, by its index in extraStdio. */
  const stubTexts = new Map<number, string>();
  try {
    for (const m of plan.mounts) {
      if (!mountTakesFd(m)) {
        mountFds.push(-1);
        continue;
      }
      if (m.op === "stub") stubTexts.set(extraStdio.length, m.text);
      const fd = m.op === "mask-file" || m.op === "stub"
        ? "pipe"
        : pinPath(m.path, { directory: entryKind(m.path) === "dir" });
      if (typeof fd === "number") cleanups.push(() => closeSync(fd));
      mountFds.push(3 + extraStdio.length);
      extraStdio.push(fd);
    }
  } catch (error) {
    if (error instanceof PinError) throw new SandboxRefusedError([error.message]);
    throw error;
  }
  timingMark("wrap:pinned");
  const inner = [
    ...rlimits,
    ...(base.network ? base.network.bridgeCommand(4) : []),
    ...argv,
  ];
  const outer = bwrapArgs(plan, {
    bwrapPath: availability.bwrapPath,
    cwd: options.cwd,
    seccompFd: 3,
    mountFds,
    privateTmp: { path: tempDir, sizeBytes: profile.limits.maxTmpBytes },
    devNodes: devNodeFds,
  });
  const program = seccompProgram(availability.seccompArch);
  timingMark("wrap:seccomp");
  return {
    ...base,
    argv: [
      ...(cgroup ? cgroupLauncher(cgroup.joinFiles) : []),
      ...(user ? setprivPrefix(availability.setprivPath!, user) : []),
      ...outer,
      ...inner,
    ],
    extraStdio,
    plan,
    revalidation: scanned.revalidation,
    processCap: cgroup ? "cgroup" : "rlimit",
    logTag: null,
    attach: (spawned) => {
      // bwrap reads the seccomp program to its end, each masked file's (empty) contents and each stub.
      extraStdio.forEach((entry, i) => {
        const fd = spawned.stdio[3 + i];
        if (entry !== "pipe" || typeof fd !== "number") return;
        if (i === 1 && base.network) return base.network.attachChannel(fd);
        try {
          if (i === 0) writeSync(fd, program);
          const stub = stubTexts.get(i);
          if (stub !== undefined) writeSync(fd, stub);
        } catch {
          // bwrap ended before reading it (a failed mount): its exit status and message tell
        } finally {
          closeSync(fd);
        }
      });
      const seconds = profile.limits.maxWallSeconds;
      if (seconds !== null && spawned.kill) cleanups.push(killAfter(spawned.kill.bind(spawned), seconds));
    },
  };
}

/** A name for one run's quarantine directory: sortable by time, unique. */
function runId(): string {
  return `${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}-${
    crypto.randomUUID().slice(0, 8)
  }`;
}
