/**
 * What to tell the model when a sandboxed command failed because of the sandbox: which path or host
 * was blocked, why, and which narrow exception to ask for, so it asks instead of retrying blindly.
 */
import { join, resolve } from "node:path";
import type { Denial } from "./proxy.ts";
import { isInside } from "../tool/paths.ts";
import { PRIVATE_HOST_DIRS } from "./mount-plan.ts";
import { WRITE_PRESETS } from "./presets.ts";
import type { SandboxProfile } from "./profile.ts";

export interface FailureInfo {
  /** The command's stderr (or combined output). */
  output: string;
  exitCode: number;
  /** Working directory, to resolve relative paths in error messages. */
  cwd: string;
  denials?: Denial[];
}

// Node's recursive mkdir reports a read-only parent as ENOENT (npm's cache under a read-only home).
const WRITE_DENIED = /Read-only file system|EROFS|Device or resource busy|ENOENT[^\n]*\bmkdir\b/;
const ACCESS_DENIED = /Permission denied|Operation not permitted|EACCES|EPERM/;
const NETWORK_DOWN =
  /Could not resolve host|Temporary failure in name resolution|Name or service not known|Network is unreachable|getaddrinfo|ENOTFOUND|EAI_AGAIN|ENETUNREACH/i;
const NOT_FOUND = /No such file or directory|ENOENT/;
const NO_SPACE = /No space left on device|ENOSPC/;
const FORK_LIMIT = /fork: (retry: )?Resource temporarily unavailable|Cannot fork|EAGAIN.*fork/i;

/**
 * Paths mentioned on one error line: quoted ones, path-looking words, the word before the error.
 * The program's own name in front (`/usr/bin/bash: line 1: ...`) is not one of them.
 */
function pathsIn(line: string, cwd: string): string[] {
  const quoted = [...line.matchAll(/[`'‘"]([^`'’"]+)[`'’"]/g)].map((m) => m[1]!);
  const message = line.replace(/^\S+: (?:line \d+: )?/, "");
  const bare = [...message.matchAll(/(?:^|\s)((?:\/|\.\.?\/|~\/)[^\s:]+)/g)].map((m) => m[1]!);
  const beforeError = /(\S+): (?:Read-only file system|Permission denied|Operation not permitted)/.exec(line)
    ?.[1];
  const candidates = [...quoted, ...bare, ...(beforeError ? [beforeError] : [])]
    .filter((p) => p.length > 0 && !p.includes(" ") && (p.includes("/") || p.startsWith(".")));
  return [...new Set(candidates.map((p) => resolve(cwd, p)))];
}

/** Why writing `path` is refused under `profile`, in one clause; null when it should be writable. */
function whyNotWritable(path: string, profile: SandboxProfile): string | null {
  for (const root of profile.writableRoots) {
    for (const entry of profile.protectedEntries) {
      const protectedPath = join(root, entry.path);
      if (path === protectedPath || isInside(path, protectedPath)) {
        return `${protectedPath} is a protected path (shell startup files, git hooks and config, editor ` +
          `and agent settings stay read-only in every sandbox). Ask the user to make this change ` +
          `themselves, outside the sandbox.`;
      }
    }
  }
  const denied = profile.denyWrite.find((d) => isInside(path, d));
  if (denied) return `${denied} is in the sandbox's denyWrite list. Ask the user whether it may be changed.`;
  if (!profile.writableRoots.some((r) => isInside(path, r))) {
    const cache = isPackageCache(path)
      ? " It is a package manager's download cache: the opt-in preset @package-caches (sandbox allowWrite, or --allow-write @package-caches) makes the existing ones writable."
      : "";
    const hidden = privateDirOf(path, profile);
    const where = hidden
      ? ` It lies in the host's ${hidden}, which the sandbox replaces with an empty, read-only one (other ` +
        `sessions leave files there), so it can be neither read nor written.`
      : "";
    return `${path} is outside the writable directories (${
      profile.writableRoots.join(", ")
    }, and $TMPDIR).${where} ` +
      `If the task needs it, ask for the narrow exception: allow writing ${path} (sandbox allowWrite, ` +
      `or --allow-write ${path}), rather than turning the sandbox off.${cache}`;
  }
  return null;
}

/** The shared temp dir (`/tmp`) that `path` lies in and the sandbox does not show (`privateTmp`), if any. */
function privateDirOf(path: string, profile: SandboxProfile): string | undefined {
  if (!profile.privateTmp || profile.writableRoots.some((r) => isInside(path, r))) return undefined;
  return PRIVATE_HOST_DIRS.find((dir) => path !== dir && isInside(path, dir));
}

/** Whether a path lies in one of the package caches of the @package-caches preset, in any home. */
function isPackageCache(path: string): boolean {
  return (WRITE_PRESETS["@package-caches"] ?? []).some((entry) => {
    const at = path.indexOf(`/${entry.slice(2)}`);
    const end = at + entry.length - 1;
    return at > 0 && (path.length === end || path[end] === "/");
  });
}

/**
 * Paths the output says could not be written only because they lie outside the writable paths:
 * what a person may grant (protected paths, denyWrite and hidden paths never are).
 */
export function blockedWrites(
  failure: Pick<FailureInfo, "output" | "cwd">,
  profile: SandboxProfile,
): string[] {
  const found = failure.output.split("\n")
    .flatMap((line) => {
      const paths = pathsIn(line, failure.cwd);
      if (WRITE_DENIED.test(line) || ACCESS_DENIED.test(line)) return paths;
      // What lies in the host's /tmp is missing inside: a write there failed for want of its directory.
      return NOT_FOUND.test(line) ? paths.filter((path) => privateDirOf(path, profile)) : [];
    })
    .filter((path) =>
      !profile.denyRead.some((d) => isInside(path, d)) && !profile.writableRoots.some((r) =>
        isInside(path, r)
      ) &&
      !profile.denyWrite.some((d) => isInside(path, d))
    );
  return [...new Set(found)];
}

/**
 * The explanation, or null when nothing in the failure points at the sandbox.
 *
 * @example explainSandboxFailure({ output: "touch: cannot touch '/etc/x': Read-only file system", exitCode: 1, cwd: "/w" }, profile)
 */
export function explainSandboxFailure(failure: FailureInfo, profile: SandboxProfile): string | null {
  const findings: string[] = [];
  for (const d of failure.denials ?? []) {
    findings.push(
      `network access to ${d.host}:${d.port} was blocked by the sandbox proxy (not in the allow-list). ` +
        `If the task needs it, ask for the narrow exception: allow host ${d.host} (sandbox allowNet, or ` +
        `--allow-net ${d.host}).`,
    );
  }
  for (const line of failure.output.split("\n")) {
    // A hidden directory is an empty one: what was in it reads as missing.
    const missing = !WRITE_DENIED.test(line) && NOT_FOUND.test(line);
    if (WRITE_DENIED.test(line) || ACCESS_DENIED.test(line) || missing) {
      for (const path of pathsIn(line, failure.cwd)) {
        const readDenied = profile.denyRead.find((d) => isInside(path, d));
        if (readDenied && !WRITE_DENIED.test(line)) {
          findings.push(
            profile.hiddenCredentials.includes(readDenied)
              ? `${readDenied} is a credential location the sandbox hides by default. Do not try to read it ` +
                `another way; if the task truly needs it, ask the user to allow it (sandbox.allowRead, or ` +
                `--allow-read ${readDenied}).`
              : `${readDenied} is hidden by the sandbox (denyRead). Do not try to read it another way.`,
          );
          continue;
        }
        if (missing && !privateDirOf(path, profile)) continue;
        const why = whyNotWritable(path, profile);
        if (why) findings.push(`writing ${path} was blocked: ${why}`);
      }
    }
    if (NETWORK_DOWN.test(line) && (failure.denials ?? []).length === 0) {
      const host = /(?:resolve host|getaddrinfo \w+|ENOTFOUND) ?:? ?([\w.-]+\.[a-z]{2,})/i.exec(line)?.[1];
      findings.push(
        `the network is off inside the sandbox${host ? ` (${host} was not reachable)` : ""}. If the task ` +
          `needs a host, ask for the narrow exception: allow that host (sandbox allowNet, or --allow-net HOST).`,
      );
    }
    if (line.startsWith("bwrap: ")) {
      findings.push(`the sandbox itself could not start (${line}); the command did not run.`);
    }
    if (FORK_LIMIT.test(line)) {
      findings.push(
        `the sandbox caps the number of processes at ${profile.limits.maxProcesses}; run fewer in parallel.`,
      );
    }
  }
  findings.push(...limitFindings(failure, profile));
  if (findings.length === 0) return null;
  return ["The sandbox blocked part of this command:", ...[...new Set(findings)].map((f) => `- ${f}`)].join(
    "\n",
  );
}

const gib = (bytes: number) => `${Math.round((bytes / 1024 ** 3) * 100) / 100} GiB`;

/** A kill or a full $TMPDIR that a limit of the sandbox may have caused (`sandbox.limits`). */
function limitFindings(failure: FailureInfo, profile: SandboxProfile): string[] {
  const { limits } = profile;
  const found: string[] = [];
  if (failure.exitCode === 137) {
    const wall = limits.maxWallSeconds === null
      ? ""
      : ` or its wall-time limit of ${limits.maxWallSeconds} s`;
    found.push(
      `the command was killed (SIGKILL), possibly by the sandbox's memory limit of ${
        gib(limits.maxMemoryBytes)
      }` +
        `${wall}. If the task needs more, ask for a higher limit (sandbox.limits).`,
    );
  }
  if (failure.exitCode === 152 && limits.maxCpuSeconds !== null) {
    found.push(
      `the command used up the sandbox's CPU time of ${limits.maxCpuSeconds} s per process ` +
        "(sandbox.limits.cpuSeconds).",
    );
  }
  if (NO_SPACE.test(failure.output)) {
    found.push(
      `if it was writing to $TMPDIR: the sandbox's private temp dir holds ${gib(limits.maxTmpBytes)} ` +
        "(sandbox.limits.tmpSize).",
    );
  }
  return found;
}
