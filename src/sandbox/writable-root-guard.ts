/**
 * Directories that must never be a writable root of a sandbox. The sandbox keeps a command's
 * writes inside its writable roots; when a root is the home (or holds it), `/` or a system
 * directory, that promise is empty: the command can leave `~/.local/bin/git`, an rc file or a
 * systemd unit that the host runs later. Such a profile is refused (the caller then asks on the
 * host) instead of being used. Pure; reviewed data, one test per entry.
 */
import { isInside } from "../tool/paths.ts";

export interface SystemDir {
  path: string;
  /** `exact`: only the directory itself (projects live below it, e.g. `/srv/app`); `tree`: it and all below. */
  scope: "exact" | "tree";
  why: string;
}

export const SYSTEM_DIRS: readonly SystemDir[] = [
  { path: "/", scope: "exact", why: "the whole file system" },
  { path: "/home", scope: "exact", why: "every user's home" },
  { path: "/Users", scope: "exact", why: "every user's home (macOS)" },
  { path: "/root", scope: "exact", why: "root's home" },
  { path: "/tmp", scope: "exact", why: "shared by every session and user" },
  { path: "/var/tmp", scope: "exact", why: "shared by every session and user" },
  { path: "/private/tmp", scope: "exact", why: "shared by every session and user (macOS)" },
  { path: "/usr", scope: "exact", why: "installed programs" },
  { path: "/usr/local", scope: "exact", why: "locally installed programs" },
  { path: "/var", scope: "exact", why: "system state and logs" },
  { path: "/opt", scope: "exact", why: "installed packages" },
  { path: "/srv", scope: "exact", why: "served data of every site" },
  { path: "/mnt", scope: "exact", why: "mounted file systems" },
  { path: "/media", scope: "exact", why: "mounted file systems" },
  { path: "/Volumes", scope: "exact", why: "mounted file systems (macOS)" },
  { path: "/etc", scope: "tree", why: "system configuration" },
  { path: "/private/etc", scope: "tree", why: "system configuration (macOS)" },
  { path: "/boot", scope: "tree", why: "the kernel and boot loader" },
  { path: "/bin", scope: "tree", why: "system programs" },
  { path: "/sbin", scope: "tree", why: "system programs" },
  { path: "/lib", scope: "tree", why: "system libraries" },
  { path: "/lib32", scope: "tree", why: "system libraries" },
  { path: "/lib64", scope: "tree", why: "system libraries" },
  { path: "/libx32", scope: "tree", why: "system libraries" },
  { path: "/usr/bin", scope: "tree", why: "system programs" },
  { path: "/usr/sbin", scope: "tree", why: "system programs" },
  { path: "/usr/lib", scope: "tree", why: "system libraries" },
  { path: "/usr/lib64", scope: "tree", why: "system libraries" },
  { path: "/usr/libexec", scope: "tree", why: "system helper programs" },
  { path: "/usr/local/bin", scope: "tree", why: "locally installed programs" },
  { path: "/usr/local/sbin", scope: "tree", why: "locally installed programs" },
  { path: "/usr/local/lib", scope: "tree", why: "locally installed libraries" },
  { path: "/var/lib", scope: "tree", why: "system and package state" },
  { path: "/var/log", scope: "tree", why: "system logs" },
  { path: "/var/spool", scope: "tree", why: "cron jobs and queues" },
  { path: "/run", scope: "tree", why: "sockets and state of running services" },
  { path: "/proc", scope: "tree", why: "kernel interfaces" },
  { path: "/sys", scope: "tree", why: "kernel interfaces" },
  { path: "/dev", scope: "tree", why: "devices" },
  { path: "/System", scope: "tree", why: "the operating system (macOS)" },
  { path: "/Library", scope: "tree", why: "system-wide configuration and programs (macOS)" },
  { path: "/Applications", scope: "tree", why: "installed programs (macOS)" },
];

/**
 * Why `root` (a real path) cannot be a writable root of a sandbox for a user whose home is `home`,
 * or null when it can. `what` names the setting in the message ("the workspace", "allowWrite").
 */
export function unsafeWritableRoot(root: string, home: string, what: string): string | null {
  const advice =
    "run the command from a project directory, or outside the sandbox (it is then put to a person)";
  if (home !== "/" && isInside(home, root)) {
    const which = root === home ? "is the home directory" : `holds the home directory ${home}`;
    return `${what} ${root} ${which}: writable in the sandbox, the command could leave files the host ` +
      `runs later (~/.local/bin, shell rc files, ~/.config); ${advice}`;
  }
  const system = SYSTEM_DIRS.find((d) => d.scope === "exact" ? root === d.path : isInside(root, d.path));
  if (system) {
    return `${what} ${root} is ${root === system.path ? "" : "inside "}a system directory (${system.path}: ` +
      `${system.why}): it cannot be writable in the sandbox; ${advice}`;
  }
  return null;
}
