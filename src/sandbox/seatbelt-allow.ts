/**
 * What a sandboxed command may ask of macOS besides files and network: the sysctls it may read, the
 * Mach services it may look up, the IOKit classes it may open. Reviewed data, each entry with why it
 * is needed and which public profile grants it too ("codex": the Codex CLI's seatbelt base and
 * network policies; "srt": Anthropic's sandbox-runtime macOS profile). Everything not listed is
 * denied by the profile's `(deny default)`. test/sandbox/seatbelt-allow.test.ts checks every entry.
 *
 * Left out on purpose (`NEVER_ALLOWED`): services that reach the user's secrets or other programs
 * (keychain, clipboard, window server, Launch Services, DNS), and sysctls that read other processes'
 * arguments and environment (`kern.procargs2`: `ps -E`).
 */

export type Anchor = "codex" | "srt" | "codex+srt";

export interface AllowEntry {
  name: string;
  /** A prefix (`sysctl-name-prefix`) rather than one exact name. */
  prefix?: boolean;
  why: string;
  anchor: Anchor;
  /** Only when the command has network through the proxy. */
  networkOnly?: boolean;
}

const cpu = "CPU and memory facts (os.cpus(), worker-pool sizes, numpy, V8)";
const os = "OS name and version (uname, sw_vers, platform checks)";

/** `(allow sysctl-read ...)`: machine and OS facts, and facts about the caller's own processes. */
export const SYSCTL_READ: readonly AllowEntry[] = [
  ...[
    "hw.activecpu",
    "hw.busfrequency_compat",
    "hw.byteorder",
    "hw.cacheconfig",
    "hw.cachelinesize_compat",
    "hw.cpufamily",
    "hw.cpufrequency",
    "hw.cpufrequency_compat",
    "hw.cputype",
    "hw.l1dcachesize_compat",
    "hw.l1icachesize_compat",
    "hw.l2cachesize_compat",
    "hw.l3cachesize_compat",
    "hw.logicalcpu",
    "hw.logicalcpu_max",
    "hw.machine",
    "hw.memsize",
    "hw.ncpu",
    "hw.nperflevels",
    "hw.packages",
    "hw.pagesize",
    "hw.pagesize_compat",
    "hw.physicalcpu",
    "hw.physicalcpu_max",
    "hw.tbfrequency_compat",
    "hw.vectorunit",
    "kern.argmax",
    "kern.maxfilesperproc",
    "kern.maxproc",
    "kern.usrstack64",
    "sysctl.proc_cputype",
    "vm.loadavg",
  ].map((name) => ({ name, why: cpu, anchor: "codex+srt" as const })),
  { name: "hw.model", why: `${cpu}: os.cpus() on Apple silicon`, anchor: "codex" },
  { name: "machdep.cpu.brand_string", why: `${cpu}: os.cpus() model names`, anchor: "codex+srt" },
  { name: "machdep.cpu.", prefix: true, why: `${cpu}: CPU feature bits on Intel`, anchor: "srt" },
  { name: "machdep.ptrauth_enabled", why: "pointer authentication (arm64e binaries)", anchor: "srt" },
  { name: "hw.optional.arm.", prefix: true, why: `${cpu}: ARM feature bits`, anchor: "codex+srt" },
  { name: "hw.optional.armv8_", prefix: true, why: `${cpu}: ARM feature bits`, anchor: "codex+srt" },
  { name: "hw.perflevel", prefix: true, why: `${cpu}: performance/efficiency cores`, anchor: "codex+srt" },
  ...[
    "kern.hostname",
    "kern.osproductversion",
    "kern.osrelease",
    "kern.ostype",
    "kern.osversion",
    "kern.version",
  ]
    .map((name) => ({ name, why: os, anchor: "codex+srt" as const })),
  { name: "kern.osvariant_status", why: "libSystem's OS-variant checks at start-up", anchor: "codex+srt" },
  { name: "kern.secure_kernel", why: "libSystem's start-up checks", anchor: "codex+srt" },
  { name: "kern.maxfiles", why: "descriptor limits (build tools size their pools by it)", anchor: "srt" },
  { name: "kern.ngroups", why: "getgroups() buffer size", anchor: "srt" },
  { name: "kern.tcsm_available", why: "V8 checks thread context-switch mitigation", anchor: "srt" },
  { name: "kern.tcsm_enable", why: "V8 checks thread context-switch mitigation", anchor: "srt" },
  {
    name: "security.mac.lockdown_mode_state",
    why: "frameworks check Lockdown Mode at start-up",
    anchor: "srt",
  },
  {
    name: "kern.proc.pid.",
    prefix: true,
    why: "one process's kinfo_proc (name, parent, state: `ps -p`); never its arguments or environment",
    anchor: "codex+srt",
  },
  {
    name: "kern.proc.pgrp.",
    prefix: true,
    why: "the processes of a group (job control, `kill 0` helpers)",
    anchor: "codex+srt",
  },
  {
    name: "kern.proc.all",
    prefix: true,
    why: "the process list (`ps`, `pgrep`): names and ids only, never arguments or environment",
    anchor: "srt",
  },
  { name: "net.routetable.", prefix: true, why: "interface addresses (getifaddrs)", anchor: "codex+srt" },
];

/** `(allow sysctl-write ...)`: two sysctls that are reads in disguise (the caller passes a buffer). */
export const SYSCTL_WRITE: readonly AllowEntry[] = [
  { name: "kern.grade_cputype", why: "the JVM reads its CPU grade through a write", anchor: "codex" },
  { name: "kern.tcsm_enable", why: "V8 sets context-switch mitigation for its own threads", anchor: "srt" },
];

/** `(allow mach-lookup (global-name ...))`. */
export const MACH_SERVICES: readonly AllowEntry[] = [
  {
    name: "com.apple.system.opendirectoryd.libinfo",
    why: "user and group lookups (getpwuid: git, ssh, whoami)",
    anchor: "codex+srt",
  },
  {
    name: "com.apple.system.opendirectoryd.membership",
    why: "group membership checks",
    anchor: "codex+srt",
  },
  {
    name: "com.apple.bsd.dirhelper",
    why: "the per-user temp and cache directories (confstr)",
    anchor: "codex+srt",
  },
  {
    name: "com.apple.system.logger",
    why: "syslog/asl messages (otherwise logged as denials)",
    anchor: "srt",
  },
  { name: "com.apple.logd", why: "os_log messages (otherwise logged as denials)", anchor: "srt" },
  {
    name: "com.apple.system.notification_center",
    why: "notify(3): time-zone and preference change notices libSystem waits for",
    anchor: "srt",
  },
  { name: "com.apple.cfprefsd.daemon", why: "reading preferences (CFPreferences)", anchor: "codex" },
  { name: "com.apple.cfprefsd.agent", why: "reading preferences (CFPreferences)", anchor: "codex" },
  { name: "com.apple.PowerManagement.control", why: "power assertions of long builds", anchor: "codex+srt" },
  { name: "com.apple.fonts", why: "font lookups (image and PDF tools)", anchor: "srt" },
  { name: "com.apple.FontObjectsServer", why: "font lookups (image and PDF tools)", anchor: "srt" },
  {
    name: "com.apple.trustd.agent",
    why: "TLS certificate checks of clients on Security.framework (Go, cargo) through the proxy",
    anchor: "codex+srt",
    networkOnly: true,
  },
];

/** `(allow iokit-open (iokit-registry-entry-class ...))`. */
export const IOKIT_CLASSES: readonly AllowEntry[] = [
  { name: "RootDomainUserClient", why: "power management queries (sleep prevention)", anchor: "codex+srt" },
];

/** Services a command never gets, whatever else is allowed: why each would be an escape. */
export const NEVER_ALLOWED: Readonly<Record<string, string>> = {
  "com.apple.SecurityServer": "the user's keychain (passwords, tokens, keys)",
  "com.apple.securityd.xpc": "the user's keychain (data-protection items)",
  "com.apple.pasteboard.1": "the clipboard: reads what the user copied, writes what they paste",
  "com.apple.pboard": "the clipboard",
  "com.apple.windowserver.active": "the screen: keystrokes and window contents",
  "com.apple.coreservices.launchservicesd": "`open`: starts applications outside the sandbox",
  "com.apple.lsd.mapdb": "Launch Services database (with launchservicesd, starts applications)",
  "com.apple.mDNSResponder": "DNS: name lookups leak data past the proxy",
  "com.apple.SystemConfiguration.DNSConfiguration": "DNS configuration for direct lookups",
  "com.apple.ocspd": "fetches URLs named in certificates: a request past the proxy",
  "com.apple.distributed_notifications@Uv3": "posts to other applications",
  "kern.procargs2": "other processes' arguments and environment (`ps -E`: secrets of the parent)",
  "kern.procargs": "other processes' arguments",
};
