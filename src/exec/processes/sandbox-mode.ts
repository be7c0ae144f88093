/**
 * Whether one command runs in the sandbox, outside it, or not at all: decided from the policy's
 * `sandbox` settings, the model's request and whether this machine has a sandbox. Pure.
 *
 * In order: the sandbox switched off by policy → outside; an excluded command → outside;
 * `dangerouslyDisableSandbox` → outside only when `allowUnsandboxedCommands`, else in the sandbox
 * with a notice; no sandbox on this machine → refused, or outside with a warning (`whenUnavailable`).
 */
import type { SandboxPolicy } from "../../policy/sandbox-policy.ts";
import type { SandboxAvailability } from "../../sandbox/detect.ts";
import type { LaunchRequest } from "./launch.ts";

export type SandboxMode =
  | { kind: "sandboxed"; notices: string[] }
  /** `reason` goes to the audit log; `notices` to the model. */
  | { kind: "unsandboxed"; reason: string; notices: string[] }
  | { kind: "refused"; message: string };

type Policy = Pick<
  SandboxPolicy,
  "enabled" | "excludedCommands" | "allowUnsandboxedCommands" | "whenUnavailable" | "origin"
>;

/** @example sandboxModeFor({ command: "docker ps", unsandboxed: false }, policy, detectSandbox()) */
export function sandboxModeFor(
  request: LaunchRequest,
  policy: Policy,
  availability: SandboxAvailability,
): SandboxMode {
  if (!policy.enabled) {
    return { kind: "unsandboxed", reason: `the sandbox is disabled (${policy.origin.enabled})`, notices: [] };
  }
  const excluded = excludedPrefix(request.command, policy.excludedCommands);
  if (excluded !== undefined) {
    return {
      kind: "unsandboxed",
      reason: `the command matches the excluded command "${excluded}" (sandbox.excludedCommands)`,
      notices: [],
    };
  }
  const notices: string[] = [];
  if (request.unsandboxed) {
    if (policy.allowUnsandboxedCommands) {
      return {
        kind: "unsandboxed",
        reason:
          `dangerouslyDisableSandbox, allowed by sandbox.allowUnsandboxedCommands (${policy.origin.allowUnsandboxedCommands})`,
        notices: [
          "Ran outside the sandbox, as requested with dangerouslyDisableSandbox (the policy allows it).",
        ],
      };
    }
    notices.push(
      "dangerouslyDisableSandbox was ignored: the policy does not allow commands outside the sandbox " +
        `(sandbox.allowUnsandboxedCommands is false, ${policy.origin.allowUnsandboxedCommands}). The command ` +
        "ran in the sandbox. If the sandbox blocked something the task needs, ask the user for that narrow " +
        "exception (a writable path: sandbox.allowWrite; a host: sandbox.allowNet).",
    );
  }
  if (availability.available) return { kind: "sandboxed", notices };
  if (policy.whenUnavailable === "warn") {
    return {
      kind: "unsandboxed",
      reason:
        `no sandbox is available (${availability.reason}); sandbox.whenUnavailable is "warn" (${policy.origin.whenUnavailable})`,
      notices: [
        ...notices,
        `Warning: ran WITHOUT a sandbox: ${availability.reason}. The policy allows that ` +
        `(sandbox.whenUnavailable is "warn", ${policy.origin.whenUnavailable}).`,
      ],
    };
  }
  return {
    kind: "refused",
    message:
      `No sandbox is available, so the command did not run: ${availability.reason}. The policy refuses ` +
      `commands without a sandbox (sandbox.whenUnavailable is "refuse", ${policy.origin.whenUnavailable}). ` +
      'To allow running without one, a user sets "sandbox": { "whenUnavailable": "warn" } in a policy file; ' +
      "or makes the sandbox available.",
  };
}

/** Shell text beyond a plain word list: with any of it, a command never counts as excluded. */
const NOT_SIMPLE = /[;&|<>()`$\\\n\r]/;

/**
 * The excluded prefix `command` starts with, word for word; undefined when none does or when the
 * command is more than one simple command (`docker ps && rm -rf ~` runs in the sandbox).
 */
export function excludedPrefix(command: string, prefixes: readonly string[]): string | undefined {
  if (NOT_SIMPLE.test(command)) return undefined;
  const words = command.trim().split(/\s+/);
  return prefixes.find((prefix) => {
    const wanted = prefix.trim().split(/\s+/);
    return wanted.length <= words.length && wanted.every((word, i) => words[i] === word);
  });
}
