/** A profile for pure tests: one writable root, the mandatory protected list, default limits. */
import { DEFAULT_LIMITS, type SandboxProfile } from "../../src/sandbox/profile.ts";
import { MANDATORY_PROTECTED } from "../../src/sandbox/protected.ts";

export function testProfile(workspace: string, over: Partial<SandboxProfile> = {}): SandboxProfile {
  return {
    workspace,
    writableRoots: [workspace],
    denyRead: [],
    hiddenCredentials: [],
    denyWrite: [],
    protectedEntries: MANDATORY_PROTECTED,
    allowNet: [],
    allowLocalhost: false,
    unsetEnvPatterns: [],
    limits: DEFAULT_LIMITS,
    runAsRoot: false,
    privateTmp: false,
    problems: [],
    ...over,
  };
}

/** Secret-holding names under other spellings that an older scrub list let through. */
export const SECRET_NAMES_ONCE_MISSED = [
  "DB_PASS",
  "KEYSTORE_PASS",
  "PASS",
  "AUTH",
  "PWD_DB",
  "KUBECONFIG_DATA",
  "KUBE_CONFIG_DATA",
] as const;
