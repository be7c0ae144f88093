/**
 * Where a shell call will run, as the decision sees it: in the sandbox (with what it contains) or
 * on the host (and why). The same `sandboxModeFor` that launches the command decides it, so a
 * decision never assumes a sandbox the launch would not use. `executionPlace` is pure;
 * `commandPlaces` builds the workspace's profile and looks at this machine once.
 */
import type { SandboxPolicy } from "../../policy/sandbox-policy.ts";
import type { SandboxContext } from "../../policy/types.ts";
import { detectSandbox, type SandboxAvailability } from "../../sandbox/detect.ts";
import { buildSandboxProfile, type SandboxProfile } from "../../sandbox/profile.ts";
import type { LaunchRequest } from "./launch.ts";
import { sandboxModeFor } from "./sandbox-mode.ts";

export type ExecutionPlace =
  | { sandboxed: true; context: SandboxContext }
  | { sandboxed: false; why: string };

/**
 * @example executionPlace({ command: "npm test", unsandboxed: false }, policy, profile, detectSandbox(), { asksForHosts: false })
 */
export function executionPlace(
  request: LaunchRequest,
  policy: SandboxPolicy,
  profile: Pick<SandboxProfile, "writableRoots" | "allowNet" | "denyRead" | "hiddenCredentials" | "problems">,
  availability: SandboxAvailability,
  options: { asksForHosts: boolean },
): ExecutionPlace {
  const mode = sandboxModeFor(request, policy, availability);
  if (mode.kind === "unsandboxed") {
    return { sandboxed: false, why: `runs outside the sandbox: ${mode.reason}` };
  }
  if (mode.kind === "refused") {
    // Said where a command is decided (check, hook, the pipeline's decision), not where it is run:
    // the launch's refusal says what the model and person can do about it.
    return {
      sandboxed: false,
      why: `no sandbox is available here: ${availability.available ? mode.message : availability.reason}`,
    };
  }
  return {
    sandboxed: true,
    context: {
      writable: profile.writableRoots,
      allowNet: profile.allowNet,
      asksForHosts: options.asksForHosts,
      denyRead: profile.denyRead,
      credentials: profile.hiddenCredentials,
      ...(policy.autoAllow
        ? {}
        : { autoAllowOff: `sandbox.autoAllow is false (${policy.origin.autoAllow})` }),
      ...(request.unsandboxed ? { escapeRequested: true } : {}),
      ...(profile.problems.length ? { refusals: profile.problems } : {}),
    },
  };
}

/**
 * Where each command run in `workspace` goes, by the policy's `sandbox` settings and this machine's
 * sandbox: what `toolrt check --sandboxed` and `toolrt hook --sandbox` decide with.
 */
export function commandPlaces(
  policy: SandboxPolicy,
  workspace: string,
  options: { asksForHosts: boolean; home?: string },
): (command: string) => ExecutionPlace {
  const profile = buildSandboxProfile(policy, workspace, options.home ? { home: options.home } : {});
  const availability = detectSandbox();
  return (command) => executionPlace({ command, unsandboxed: false }, policy, profile, availability, options);
}
