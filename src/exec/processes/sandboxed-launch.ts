/**
 * The `LaunchWrapper` that runs the process tools' commands in the sandbox: one profile for the
 * whole session (built once from the policy's `sandbox` settings and the workspace), one cgroup for
 * all of its commands (made at the first one, removed by `close()`), one change watcher (`tree-watch.ts`:
 * each command looks only at the directories that changed since the last), a fresh wrap per command
 * (`wrapCommand`: temp dir, scan, pinned mounts, proxy, quarantine after), the mode per command from
 * `sandboxModeFor`, and an explanation when a command fails because of the sandbox.
 *
 * The shared cgroup makes the process and memory caps apply to the session's sandboxed commands
 * together (a fork bomb in a background task and one in the foreground share one `pids.max`), and
 * takes the cgroup's creation and removal off every command's path.
 */
import type { SandboxPolicy } from "../../policy/sandbox-policy.ts";
import { changedAutorun, describeAutorunChanges, snapshotAutorun } from "../../sandbox/autorun.ts";
import { detectSandbox, type SandboxAvailability } from "../../sandbox/detect.ts";
import { explainSandboxFailure } from "../../sandbox/explain.ts";
import { type Cgroup, createCgroup } from "../../sandbox/limits.ts";
import { homedir } from "node:os";
import { timingMark } from "../../sandbox/timing.ts";
import { describeQuarantined } from "../../sandbox/quarantine.ts";
import { sandboxStateDir } from "../../sandbox/linux-plan.ts";
import { TreeWatch } from "../../sandbox/tree-watch.ts";
import { InProcessScanner } from "../../sandbox/watch-service.ts";
import { SandboxRefusedError, wrapCommand } from "../../sandbox/wrap.ts";
import type { LaunchRequest, LaunchWrapper, WrappedLaunch } from "./launch.ts";
import { type ExecutionPlace, executionPlace } from "./sandbox-context.ts";
import { type SandboxAsker, SandboxExceptions } from "./sandbox-exceptions.ts";
import { sandboxModeFor } from "./sandbox-mode.ts";

/** A command that ran outside the sandbox, for the audit log. */
/** How often the session's change watcher reads its queue between commands (fewer overflows). */
const WATCH_DRAIN_MS = 500;

export interface UnsandboxedRun {
  command: string;
  cwd: string;
  reason: string;
}

/** A sandboxed command that changed files which run later (`autorun-files.ts`), for the audit log. */
export interface AutorunRun {
  command: string;
  cwd: string;
  /** What the model read with the result. */
  detail: string;
}

/** A sandboxed command the sandbox stopped (a blocked write, read, host or process), for the audit log. */
export interface BlockedRun {
  command: string;
  cwd: string;
  /** `network` when the proxy refused a host, `filesystem-or-limits` for what the command's output shows. */
  kind: "network" | "filesystem-or-limits";
  explanation: string;
}

export interface SandboxedLaunchOptions {
  policy: SandboxPolicy;
  /** Writable root of the profile (the session's cwd). */
  workspace: string;
  /** Default: `detectSandbox()` (cached per process). Tests inject an unavailable one. */
  availability?: SandboxAvailability;
  /** Told of every run outside the sandbox, before it starts. */
  onUnsandboxed?: (run: UnsandboxedRun) => void;
  /** Told of every sandboxed run that failed because of the sandbox. */
  onBlocked?: (run: BlockedRun) => void;
  /** Told of every sandboxed run that changed files which run later. */
  onAutorunChanged?: (run: AutorunRun) => void;
  /** toolrt's state dir: the sandbox's indexes and quarantine (default: grantsDir, else the default). */
  stateDir?: string;
  /** Told of what a sandboxed command left at protected paths (moved to quarantine), after it ended. */
  onQuarantined?: (run: { command: string; cwd: string; lines: string[] }) => void;
  /**
   * A person to ask for a host or a path the sandbox blocks (interactive sessions); without one,
   * such hosts are refused and the result names the exception to ask for.
   */
  asker?: SandboxAsker;
  /** Where "always" answers are recorded as session grants of the workspace. */
  grantsDir?: string;
  home?: string;
}

/**
 * The wrapper; `placeOf`, where a command will run (for the decision, with the same profile and
 * mode as the launch); and `close()` for the end of its session: removes the shared cgroup.
 */
export type SandboxedLauncher = LaunchWrapper & {
  placeOf(request: LaunchRequest): ExecutionPlace;
  close(): Promise<void>;
};

/**
 * @example createBashTool({ wrapLaunch: sandboxedLaunch({ policy, workspace: cwd, onUnsandboxed: audit }) })
 */
export function sandboxedLaunch(options: SandboxedLaunchOptions): SandboxedLauncher {
  const { policy } = options;
  const exceptions = new SandboxExceptions(policy, options.workspace, {
    home: options.home ?? homedir(),
    ...(options.asker ? { asker: options.asker } : {}),
    ...(options.grantsDir ? { stateDir: options.grantsDir } : {}),
  });
  let cgroup: Cgroup | null | undefined;
  // The session's change watcher: made at the first sandboxed command, closed with the session.
  let watch: TreeWatch | undefined;
  let closed = false;
  const stateDir = options.stateDir ?? options.grantsDir;
  const wrap: LaunchWrapper = async (launch, request): Promise<WrappedLaunch> => {
    const availability = options.availability ?? detectSandbox();
    const mode = sandboxModeFor(request, policy, availability);
    if (mode.kind === "refused") throw new Error(mode.message);
    if (mode.kind === "unsandboxed") {
      options.onUnsandboxed?.({ command: request.command, cwd: launch.cwd, reason: mode.reason });
      return { ...launch, notices: mode.notices };
    }
    timingMark("launch:start");
    if (closed) throw new Error("The sandbox of this session has been closed; the command did not run.");
    // Only where bwrap runs: a cgroup is Linux's, and made once (null: none possible, not retried).
    const profile = exceptions.profile(request.grantedWrites);
    if (availability.available && availability.kind === "bwrap" && cgroup === undefined) {
      cgroup = createCgroup(profile.limits);
    }
    if (availability.available && availability.kind === "bwrap") {
      watch ??= new TreeWatch(sandboxStateDir(stateDir), { drainEveryMs: WATCH_DRAIN_MS });
    }
    const askHost = exceptions.hostAsker(request.command);
    const autorunBefore = snapshotAutorun(profile.workspace);
    let wrapped;
    try {
      wrapped = await wrapCommand(profile, launch.argv, {
        cwd: launch.cwd,
        env: launch.env,
        availability,
        ...(cgroup === undefined ? {} : { cgroup }),
        ...(askHost ? { askHost } : {}),
        ...(stateDir ? { stateDir } : {}),
        ...(watch ? { scanner: new InProcessScanner(watch) } : {}),
      });
    } catch (error) {
      if (!(error instanceof SandboxRefusedError)) throw error;
      throw new Error(
        `The sandbox cannot enforce its profile here, so the command did not run: ${
          error.reasons.join("; ")
        }. Ask the user to fix this (it is never run without the sandbox instead).`,
      );
    }
    timingMark("launch:wrapped");
    const denials = wrapped.network?.denials ?? [];
    return {
      argv: wrapped.argv,
      env: wrapped.env,
      cwd: launch.cwd,
      extraStdio: wrapped.extraStdio,
      attach: wrapped.attach,
      cleanup: async () => {
        await wrapped.cleanup();
        timingMark("launch:cleaned");
      },
      notices: mode.notices,
      afterRun: () => {
        const lines: string[] = [];
        // Filled by the cleanup, which has run by now.
        const quarantined = wrapped.quarantined.map(describeQuarantined);
        if (quarantined.length) {
          options.onQuarantined?.({ command: request.command, cwd: launch.cwd, lines: quarantined });
          lines.push(
            ...quarantined.map((q) => `The sandbox moved what the command left at a protected path: ${q}`),
          );
        }
        const changes = changedAutorun(autorunBefore, snapshotAutorun(profile.workspace), profile.workspace);
        if (changes.length === 0) return lines;
        const detail = describeAutorunChanges(changes);
        options.onAutorunChanged?.({ command: request.command, cwd: launch.cwd, detail });
        return [...lines, `This command ${detail}. Tell the user what changed in them and why.`];
      },
      explainFailure: ({ output, exitCode }) => {
        const explanation = explainSandboxFailure({ output, exitCode, cwd: launch.cwd, denials }, profile);
        if (explanation) {
          const kind = denials.length > 0 ? "network" : "filesystem-or-limits";
          options.onBlocked?.({ command: request.command, cwd: launch.cwd, kind, explanation });
        }
        return explanation;
      },
      ...(exceptions.asks
        ? {
          askToRetry: ({ output }) =>
            exceptions.retryAfter(request.command, { output, cwd: launch.cwd }, profile),
        }
        : {}),
    };
  };
  return Object.assign(wrap, {
    placeOf: (request: LaunchRequest) =>
      executionPlace(request, policy, exceptions.profile(), options.availability ?? detectSandbox(), {
        asksForHosts: exceptions.asks,
      }),
    close: async () => {
      closed = true;
      watch?.close();
      await cgroup?.remove();
    },
  });
}
