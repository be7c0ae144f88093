/**
 * The macOS half: a sandbox-exec (Seatbelt) profile generated from the same profile. UNTESTED on a
 * real Mac (this project's machines run Linux); the tests only pin the generated text.
 *
 * Differences from Linux: rules are by path, so protected paths need no placeholders and renaming
 * a parent does not help (the new path is denied again), but a hard link made before the run still
 * writes through (Seatbelt checks the path used, not the inode); there is no process or memory cap.
 */
import { join } from "node:path";
import type { SandboxProfile } from "./profile.ts";

/** Seatbelt string literal. */
export function sbplString(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

export function sbplProfile(
  profile: SandboxProfile,
  options: { tempDir: string; proxyPort: number | null },
): string {
  const writable = [...profile.writableRoots, options.tempDir];
  const protectedRules = profile.writableRoots.flatMap((root) =>
    profile.protectedEntries.map((e) =>
      e.kind === "dir"
        ? `(subpath ${sbplString(join(root, e.path))})`
        : `(literal ${sbplString(join(root, e.path))})`
    )
  );
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read mach-lookup ipc-posix-shm* ipc-posix-sem file-ioctl pseudo-tty)",
    "(allow file-read*)",
    ...profile.denyRead.map((p) => `(deny file-read* (subpath ${sbplString(p)}))`),
    `(allow file-write* ${writable.map((p) => `(subpath ${sbplString(p)})`).join(" ")})`,
    '(allow file-write* (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$"))',
    ...[...protectedRules, ...profile.denyWrite.map((p) => `(subpath ${sbplString(p)})`)].map((rule) =>
      `(deny file-write* ${rule})`
    ),
    ...(options.proxyPort === null
      ? []
      : [`(allow network-outbound (remote ip "localhost:${options.proxyPort}"))`]),
  ];
  return lines.join("\n") + "\n";
}
