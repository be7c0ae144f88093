/**
 * `toolrt hook --sandbox`: a host's shell command rewritten to run under `toolrt sandbox` with the
 * workspace's profile (the policy's merged `sandbox` section). The host's own shell runs the line;
 * `toolrt sandbox` passes the original, untouched, to `bash -c` inside, so the command runs as the
 * analyzer read it (bash), and its exit status, stdout and stderr are the host's result. Pure.
 */
import type { SandboxPolicy } from "../policy/sandbox-policy.ts";
import type { SandboxLimits } from "../sandbox/profile.ts";
import type { ProgramMask } from "../sandbox/program-masks.ts";
import { shellLine } from "./command.ts";

/** The profile settings `toolrt sandbox` takes as flags, each from the policy list of that name. */
export const SANDBOX_FLAGS = {
  allowWrite: "--allow-write",
  denyRead: "--deny-read",
  denyWrite: "--deny-write",
  allowNet: "--allow-net",
  unsetEnv: "--unset-env",
  allowRead: "--allow-read",
} as const satisfies Partial<Record<keyof SandboxPolicy, string>>;

/** The profile settings `toolrt sandbox` takes as switches, each given when the policy's is true. */
export const SANDBOX_SWITCHES = {
  allowLocalhost: "--allow-localhost",
  runAsRoot: "--run-as-root",
  privateTmp: "--private-tmp",
} as const satisfies Partial<Record<keyof SandboxPolicy, string>>;

/** The policy's `limits`, each as `toolrt sandbox`'s flag (sizes in bytes). */
export const LIMIT_FLAGS: Record<keyof SandboxLimits, string> = {
  maxProcesses: "--max-processes",
  maxMemoryBytes: "--max-memory",
  maxCpuSeconds: "--max-cpu-seconds",
  maxWallSeconds: "--max-wall-seconds",
  maxTmpBytes: "--tmp-size",
};

/**
 * `masks`: the programs the command may not start (the hook's rules, Claude Code's included, minus
 * what the line names), as `--mask-program NAME=WHY`; `--policy-rules=off` keeps `toolrt sandbox`
 * from reading the policy files again for them.
 *
 * @example sandboxedCommand("npm test", policy, "/src/app", ["/usr/local/bin/toolrt"])
 * // "/usr/local/bin/toolrt sandbox --workspace=/src/app --policy-rules=off -- bash --noprofile --norc -c 'npm test'"
 */
export function sandboxedCommand(
  command: string,
  policy: Pick<SandboxPolicy, keyof typeof SANDBOX_FLAGS | keyof typeof SANDBOX_SWITCHES | "limits">,
  workspace: string,
  self: readonly string[],
  masks: readonly ProgramMask[] = [],
): string {
  // `--flag=value`: a value that starts with `-` is never read as another option.
  const flags = (Object.keys(SANDBOX_FLAGS) as (keyof typeof SANDBOX_FLAGS)[])
    .flatMap((key) => policy[key].map((value) => `${SANDBOX_FLAGS[key]}=${value}`));
  const switches = (Object.keys(SANDBOX_SWITCHES) as (keyof typeof SANDBOX_SWITCHES)[])
    .filter((key) => policy[key]).map((key) => SANDBOX_SWITCHES[key]);
  const limits = (Object.keys(LIMIT_FLAGS) as (keyof SandboxLimits)[])
    .flatMap((key) => policy.limits[key] == null ? [] : [`${LIMIT_FLAGS[key]}=${policy.limits[key]}`]);
  return shellLine([
    ...self,
    "sandbox",
    `--workspace=${workspace}`,
    ...flags,
    ...switches,
    ...limits,
    ...masks.map((m) => `--mask-program=${m.program}=${m.why}`),
    "--policy-rules=off",
    "--",
    "bash",
    "--noprofile",
    "--norc",
    "-c",
    command,
  ]);
}
