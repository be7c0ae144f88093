/**
 * Commands the sandbox cannot contain: their whole job needs the host (root, a host daemon's unix
 * socket, the kernel's mounts and namespaces). Inside toolrt's sandbox they fail (no new
 * privileges, every capability dropped, no unix sockets, no user namespaces), so running them there
 * is no reason to skip the prompt: a person decides, and `sandbox.excludedCommands` is how a
 * policy runs one outside. Reviewed data: each entry has a test, and `probe` is a harmless command
 * line the tests run inside the real sandbox to show it cannot do its job there.
 */

export interface HostCommand {
  /** Why it needs the host, completing "<name> ...". */
  reason: string;
  /** A harmless invocation that must fail inside the sandbox when the program is installed. */
  probe: string[];
}

export const HOST_COMMANDS: Readonly<Record<string, HostCommand>> = {
  sudo: { reason: "runs a command as root", probe: ["sudo", "-n", "true"] },
  su: { reason: "runs a shell as another user", probe: ["su", "-c", "true", "root"] },
  doas: { reason: "runs a command as root", probe: ["doas", "-n", "true"] },
  pkexec: { reason: "runs a command as root", probe: ["pkexec", "true"] },
  runuser: { reason: "runs a command as another user (root only)", probe: ["runuser", "-u", "root", "true"] },
  chroot: { reason: "changes the root directory (needs CAP_SYS_CHROOT)", probe: ["chroot", "/", "true"] },
  nsenter: { reason: "enters another process's namespaces", probe: ["nsenter", "-t", "1", "-m", "true"] },
  unshare: {
    reason: "creates namespaces (switched off inside the sandbox)",
    probe: ["unshare", "-U", "true"],
  },
  mount: { reason: "mounts filesystems", probe: ["mount", "-t", "tmpfs", "none", "/mnt"] },
  umount: { reason: "unmounts filesystems", probe: ["umount", "/proc"] },
  docker: { reason: "drives the host's Docker daemon through its socket", probe: ["docker", "ps"] },
  podman: { reason: "runs containers (needs user namespaces or the host's socket)", probe: ["podman", "ps"] },
  nerdctl: { reason: "drives the host's containerd through its socket", probe: ["nerdctl", "ps"] },
  systemctl: {
    reason: "controls the host's services through systemd",
    probe: ["systemctl", "show-environment"],
  },
  launchctl: { reason: "controls the host's services (macOS launchd)", probe: ["launchctl", "list"] },
  loginctl: {
    reason: "controls the host's login sessions through systemd",
    probe: ["loginctl", "list-sessions"],
  },
  "dbus-send": {
    reason: "talks to the host's D-Bus daemons",
    probe: [
      "dbus-send",
      "--system",
      "--print-reply",
      "--dest=org.freedesktop.DBus",
      "/",
      "org.freedesktop.DBus.ListNames",
    ],
  },
  "ssh-add": { reason: "talks to the host's ssh-agent through its socket", probe: ["ssh-add", "-l"] },
  tmux: {
    reason: "keeps sessions in a server reached through a unix socket",
    probe: ["tmux", "new-session", "-d", "true"],
  },
};

/** The entry for a program (by its base name), if it needs the host. */
export function hostCommand(program: string): (HostCommand & { name: string }) | undefined {
  const name = program.slice(program.lastIndexOf("/") + 1);
  const entry = Object.hasOwn(HOST_COMMANDS, name) ? HOST_COMMANDS[name] : undefined;
  return entry ? { name, ...entry } : undefined;
}
