/**
 * The `LaunchWrapper` that runs the process tools' commands in the sandbox: one profile for the
 * whole session (built once from the policy's `sandbox` settings and the workspace), a fresh wrap
 * per command (`wrapCommand`: temp dir, hard-link scan, placeholders, cgroup, proxy), the mode per
 * command from `sandboxModeFor`, and an explanation when a command fails because of the sandbox.
 */
import type { SandboxPolicy } from "../../policy/sandbox-policy.ts";
import { detectSandbox, type SandboxAvailability } from "../../sandbox/detect.ts";
import { explainSandboxFailure } from "../../sandbox/explain.ts";
import { buildSandboxProfile } from "../../sandbox/profile.ts";
import { SandboxRefusedError, wrapCommand } from "../../sandbox/wrap.ts";
import type { LaunchWrapper, WrappedLaunch } from "./launch.ts";
import { sandboxModeFor } from "./sandbox-mode.ts";

/** A command that ran outside the sandbox, for the audit log. */
export interface UnsandboxedRun {
  command: string;
  cwd: string;
  reason: string;
}

export interface SandboxedLaunchOptions {
  policy: SandboxPolicy;
  /** Writable root of the profile (the session's cwd). */
  workspace: string;
  /** Default: `detectSandbox()` (cached per process). Tests inject an unavailable one. */
  availability?: SandboxAvailability;
  /** Told of every run outside the sandbox, before it starts. */
  onUnsandboxed?: (run: UnsandboxedRun) => void;
  home?: string;
}

/**
 * @example createBashTool({ wrapLaunch: sandboxedLaunch({ policy, workspace: cwd, onUnsandboxed: audit }) })
 */
export function sandboxedLaunch(options: SandboxedLaunchOptions): LaunchWrapper {
  const { policy } = options;
  const profile = buildSandboxProfile(policy, options.workspace, options.home ? { home: options.home } : {});
  return async (launch, request): Promise<WrappedLaunch> => {
    const availability = options.availability ?? detectSandbox();
    const mode = sandboxModeFor(request, policy, availability);
    if (mode.kind === "refused") throw new Error(mode.message);
    if (mode.kind === "unsandboxed") {
      options.onUnsandboxed?.({ command: request.command, cwd: launch.cwd, reason: mode.reason });
      return { ...launch, notices: mode.notices };
    }
    let wrapped;
    try {
      wrapped = await wrapCommand(profile, launch.argv, { cwd: launch.cwd, env: launch.env, availability });
    } catch (error) {
      if (!(error instanceof SandboxRefusedError)) throw error;
      throw new Error(
        `The sandbox cannot enforce its profile here, so the command did not run: ${
          error.reasons.join("; ")
        }. Ask the user to fix this (it is never run without the sandbox instead).`,
      );
    }
    const denials = wrapped.network?.denials ?? [];
    return {
      argv: wrapped.argv,
      env: wrapped.env,
      cwd: launch.cwd,
      extraStdio: wrapped.extraStdio,
      attach: wrapped.attach,
      cleanup: wrapped.cleanup,
      notices: mode.notices,
      explainFailure: ({ output, exitCode }) =>
        explainSandboxFailure({ output, exitCode, cwd: launch.cwd, denials }, profile),
    };
  };
}
