import { TOOLCHAIN_DIRS } from "./jail.ts";

/**
 * What an auto-allowed command may do beyond what its analysis names, reviewed entry by entry.
 * Everything else the trace shows is a discrepancy. Each entry says why it is harmless; the test
 * (oracle.test.ts) checks each one against an event it must allow and one it must not.
 */

export interface PathAllowance {
  id: string;
  /** Absolute path prefixes (a prefix ending in `/` covers what is under it; otherwise the exact file). */
  paths: readonly string[];
  /** Commands (argv[0] base names, as the analysis names them) it applies to; absent: any. */
  commands?: readonly string[];
  /** `~/` at the start of a path is the fake home; `./` the workspace. */
  why: string;
}

/** Files any process may read: the system's libraries, locale, configuration of the C library. */
export const READS: readonly PathAllowance[] = [
  {
    id: "system-files",
    paths: ["/usr/", "/lib/", "/lib64/", "/bin/", "/sbin/", "/opt/"],
    why: "installed programs, libraries, locales, man pages, terminfo: not the user's data",
  },
  {
    id: "libc-config",
    paths: [
      "/etc/ld.so.cache",
      "/etc/ld.so.preload",
      "/etc/locale.alias",
      "/etc/localtime",
      "/etc/nsswitch.conf",
      "/etc/passwd",
      "/etc/group",
      "/etc/host.conf",
      "/etc/hosts",
      "/etc/resolv.conf",
      "/etc/gai.conf",
      "/etc/services",
      "/etc/protocols",
      "/etc/timezone",
      "/etc/mime.types",
      "/etc/magic",
      "/etc/magic.mgc",
      "/etc/terminfo/",
      "/etc/alternatives/",
      "/etc/ssl/",
      "/etc/ca-certificates/",
      "/etc/os-release",
      "/etc/debian_version",
      "/etc/lsb-release",
      "/etc/inputrc",
      "/etc/manpath.config",
      "/etc/java-17-openjdk/",
      "/etc/python3.11/",
    ],
    why:
      "read by the C library, locale, TLS and runtime start-up of every program; world-readable system config",
  },
  {
    id: "proc-sys",
    paths: ["/proc/", "/sys/", "/dev/null", "/dev/urandom", "/dev/random", "/dev/zero"],
    why:
      "the jail's own processes (a pid namespace) and the machine's description; environments printed are secret-output",
  },
  {
    id: "toolchains",
    paths: TOOLCHAIN_DIRS.map((dir) => `${dir}/`),
    why: "the host's Rust and Python installations, bound read-only into the jail (PATH, RUSTUP_HOME)",
  },
  {
    id: "git-user-config",
    paths: ["~/.gitconfig", "~/.config/git/", "/etc/gitconfig"],
    commands: ["git", "rg", "cargo", "npm", "npx"],
    why:
      "git's configuration (ripgrep reads its excludes file, cargo its defaults); credentials live in helpers, not there",
  },
  {
    id: "npm-state",
    paths: ["~/.npm/", "~/.npmrc", "/etc/npmrc"],
    commands: ["npm", "npx"],
    why: "npm's own directory (debug logs, update-check stamp, cache) and configuration; no user content",
  },
  {
    id: "system-directories",
    paths: ["/etc", "/var/lib/", "/var/cache/man/"],
    commands: ["whereis", "ls", "find", "du", "stat", "man"],
    why: "listing system directories names files only; man's index is world-readable",
  },
  {
    id: "iproute2-tables",
    paths: ["/etc/iproute2/"],
    commands: ["ip"],
    why: "ip reads its name tables (groups, routing tables, protocols) to print names for numbers",
  },
  {
    id: "df-operands",
    paths: ["/"],
    commands: ["df"],
    why: "df opens a named file only to ask its file system for usage figures; it reads no content",
  },
  {
    id: "pip-config",
    paths: ["/etc/pip.conf", "/etc/xdg/pip/", "~/.config/pip/", "~/.pip/", "~/.local/", "~"],
    commands: ["pip", "pip3", "python", "python3"],
    why: "pip's and Python's own configuration and user site directory (it lists the home to find them)",
  },
];

/** Files a command may write: devices, and caches that change no content. */
export const WRITES: readonly PathAllowance[] = [
  {
    id: "devices",
    paths: ["/dev/null", "/dev/tty", "/dev/stdout", "/dev/stderr", "/proc/self/fd/"],
    why: "discarding output, the terminal (bash opens /dev/tty at start-up), the command's own streams",
  },
  {
    id: "npm-logs",
    paths: ["~/.npm/_logs/", "~/.npm/_update-notifier-last-checked", "~/.npm"],
    commands: ["npm", "npx"],
    why: "every npm command writes its debug log and update-check stamp in npm's own directory",
  },
  {
    id: "git-index-refresh",
    paths: ["./.git/index.lock", "./.git/index"],
    commands: ["git"],
    why:
      "git status, diff and describe refresh the index's stat cache (lock, write, rename): no tracked content changes",
  },
  {
    id: "tldr-cache",
    paths: ["~/.cache/tldr", "~/.tldr", "~/.cache/tealdeer", "~/.cache/tldr-node-client"],
    commands: ["tldr"],
    why: "a tldr client keeps the pages it fetched in its own cache directory",
  },
];

/** Programs a named command may run as part of what it is: its own parts, not other tools. */
export interface ExecAllowance {
  id: string;
  command: string;
  /** Base names of the programs; `name*` covers every program whose name starts with `name`. */
  programs: readonly string[];
  why: string;
}

export const EXECS: readonly ExecAllowance[] = [
  {
    id: "git-parts",
    command: "git",
    programs: ["git", "git-*"],
    why: "git runs its own built-in parts (/usr/lib/git-core/git-*) for some subcommands",
  },
  {
    id: "git-scripts",
    command: "git",
    programs: ["basename", "sed", "gettext", "envsubst", "uname", "cat", "tr", "wc"],
    why: "git's parts written in shell (submodule, bisect) run these text utilities on git's own data",
  },
  {
    id: "grep-scripts",
    command: "egrep",
    programs: ["grep"],
    why: "egrep is a script running grep -E",
  },
  {
    id: "fgrep-script",
    command: "fgrep",
    programs: ["grep"],
    why: "fgrep is a script running grep -F",
  },
  {
    id: "rustup-version",
    command: "rustup",
    programs: ["rustc"],
    why: "rustup -V reports the active toolchain's rustc version by running it",
  },
  {
    id: "man-search",
    command: "man",
    programs: ["apropos", "whatis"],
    why: "man -k and man -f are apropos and whatis, searching the index",
  },
  {
    id: "locale-charmaps",
    command: "locale",
    programs: ["gzip"],
    why: "locale -m reads the system's compressed character maps through gzip -d",
  },
  {
    id: "rustup-proxies",
    command: "cargo",
    programs: ["cargo", "rustc"],
    why: "rustup's cargo proxy runs the toolchain's cargo, which asks rustc for its version",
  },
  {
    id: "rustup-rustc",
    command: "rustc",
    programs: ["rustc"],
    why: "rustup's rustc proxy runs the toolchain's rustc",
  },
  {
    id: "npm-node",
    command: "npm",
    programs: ["node", "npm"],
    why: "npm is a node script",
  },
  {
    id: "npx-node",
    command: "npx",
    programs: ["node", "npx"],
    why: "npx is a node script",
  },
];

/**
 * Connections a read-only command may make: its own update check, and the reads of the service the
 * user's configuration names (spec role `service`: a registry, a cluster, GitHub, tldr's pages).
 * A host named on the command line (`--registry`, `--server`, `-H`) is role `network` and asks.
 */
export interface NetworkAllowance {
  id: string;
  commands: readonly string[];
  /** Only connections to local sockets (AF_UNIX): a daemon on this machine, never a host. */
  localOnly?: boolean;
  why: string;
}

export const NETWORK: readonly NetworkAllowance[] = [
  {
    id: "container-daemon",
    commands: ["docker", "podman"],
    localOnly: true,
    why:
      "docker ps/images/inspect ask the daemon on its local socket; a daemon elsewhere (-H, --context, DOCKER_HOST) is a host",
  },
  {
    id: "package-manager-update-check",
    commands: ["npm", "npx", "pnpm", "yarn", "bun"],
    why: "npm's own update check (once a week, sending no word of the command)",
  },
  {
    id: "cluster-api",
    commands: ["kubectl", "helm"],
    why:
      "kubectl get/describe/logs ask the cluster API the user's kubeconfig names; the spec refuses --server",
  },
  {
    id: "package-registry",
    commands: ["npm", "pnpm", "yarn", "bun", "pip", "pip3"],
    why: "view, search and ping query the registry the user's configuration names; --registry asks",
  },
  {
    id: "github-api",
    commands: ["gh"],
    why: "gh's read-only subcommands ask the GitHub API as the logged-in user",
  },
  {
    id: "tldr-pages",
    commands: ["tldr"],
    why: "tldr clients fetch a page missing from their cache from the pages' server, sending its name",
  },
];

/** True when `path` is covered by one of `prefixes` (with `~` and `.` anchored). */
export function covered(path: string, prefixes: readonly string[], home: string, workspace: string): boolean {
  return prefixes.some((raw) => {
    const prefix = raw === "~"
      ? home
      : raw.startsWith("~/")
      ? home + raw.slice(1)
      : raw.startsWith("./")
      ? workspace + raw.slice(1)
      : raw;
    return prefix.endsWith("/") ? path.startsWith(prefix) || `${path}/` === prefix : path === prefix;
  });
}
