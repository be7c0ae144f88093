/**
 * Who a sandboxed command runs as when toolrt itself runs as root. bwrap's `--uid` alone only renames
 * uid 0 inside the user namespace: the process keeps the host's uid 0 and, with it, owner access to
 * every root-owned file (`/etc/shadow` is root:shadow 0640). So toolrt switches the real uid before
 * bwrap starts (`setpriv`), to the workspace owner's: files the command writes belong to whoever owns
 * the workspace, and root-only files are closed to it.
 *
 * A workspace owned by root keeps root (no other uid could write it); the credential list
 * (`credentials.ts`) still hides `/etc/shadow` and the rest there, and `dev-nodes.ts` gives it device
 * nodes of its own. `runAsRoot: true` keeps root always.
 */
import { readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { SandboxProfile } from "./profile.ts";

export interface SandboxUser {
  uid: number;
  gid: number;
  /** The user's home from the password database when it exists, else null. */
  home: string | null;
}

export interface Host {
  uid: number | undefined;
  ownerOf(path: string): { uid: number; gid: number };
  passwd(): string;
  isDir(path: string): boolean;
}

const realHost: Host = {
  uid: process.getuid?.(),
  ownerOf: (path) => statSync(path),
  passwd: () => readFileSync("/etc/passwd", "utf8"),
  isDir: (path) => {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  },
};

/** The user to switch to, or null to run as toolrt's own user. */
export function sandboxUser(
  profile: Pick<SandboxProfile, "workspace" | "runAsRoot">,
  host: Host = realHost,
): SandboxUser | null {
  if (host.uid !== 0 || profile.runAsRoot) return null;
  const owner = host.ownerOf(profile.workspace);
  if (owner.uid === 0) return null;
  return { uid: owner.uid, gid: owner.gid, home: homeOf(owner.uid, host) };
}

function homeOf(uid: number, host: Host): string | null {
  let text: string;
  try {
    text = host.passwd();
  } catch {
    return null;
  }
  for (const line of text.split("\n")) {
    const fields = line.split(":");
    if (fields[2] === String(uid) && fields[5] && host.isDir(fields[5])) return fields[5];
  }
  return null;
}

/** `setpriv` switching real and effective ids, with no supplementary groups (root's would stay). */
export function setprivPrefix(setprivPath: string, user: SandboxUser): string[] {
  return [setprivPath, `--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--"];
}

/**
 * Whether `user` can look up `path`: every directory above it searchable for that uid (owner, group
 * or other bits; no capabilities). A mount below a directory it cannot search protects nothing it
 * could reach, and bwrap, running as that user, could not make it. A missing directory counts as
 * searchable (bwrap reports it if it matters).
 */
export function searchableBy(
  user: SandboxUser,
  path: string,
  stat: (path: string) => { uid: number; gid: number; mode: number } = statSync,
): boolean {
  for (let dir = dirname(path);; dir = dirname(dir)) {
    let st;
    try {
      st = stat(dir);
    } catch {
      return true;
    }
    const shift = st.uid === user.uid ? 6 : st.gid === user.gid ? 3 : 0;
    if (((st.mode >> shift) & 1) === 0) return false;
    if (dir === dirname(dir)) return true;
  }
}
