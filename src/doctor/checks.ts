/**
 * `toolrt doctor`: what this machine gives toolrt, one check at a time, each with an id, a name, what
 * it found and, when it fails, the fix (per package manager where a package is missing). Required
 * checks decide the exit status; optional ones only warn.
 */
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type LoadOptions, loadPolicy } from "../policy/load.ts";
import { isTrusted } from "../policy/trust.ts";
import { detectSandbox } from "../sandbox/detect.ts";
import { createCgroup } from "../sandbox/limits.ts";
import { buildSandboxProfile, DEFAULT_LIMITS } from "../sandbox/profile.ts";
import { runWrapped } from "../sandbox/run.ts";
import { seccompArchOf } from "../sandbox/seccomp.ts";
import { wrapCommand } from "../sandbox/wrap.ts";

export type CheckStatus = "ok" | "warn" | "fail" | "skip";

export interface CheckResult {
  id: string;
  name: string;
  /** A failed required check makes `doctor` exit 1; a failed optional one is reported as a warning. */
  required: boolean;
  status: CheckStatus;
  /** What was found, in one line. */
  detail: string;
  /** How to fix it, one line per way (package managers, sysctls); empty when nothing is to fix. */
  fix: string[];
}

export interface DoctorInput {
  /** Where the policy files come from, as every command loads them (workspace, state dir, flags). */
  load: LoadOptions;
}

/** Package names per package manager, for the fix lines of a missing program. */
const PACKAGES: Record<string, { apt: string; dnf: string; apk: string }> = {
  bwrap: { apt: "bubblewrap", dnf: "bubblewrap", apk: "bubblewrap" },
  rg: { apt: "ripgrep", dnf: "ripgrep", apk: "ripgrep" },
  strace: { apt: "strace", dnf: "strace", apk: "strace" },
};

function installFix(program: keyof typeof PACKAGES): string[] {
  const p = PACKAGES[program]!;
  return [
    `apt: sudo apt-get install -y ${p.apt}`,
    `dnf: sudo dnf install -y ${p.dnf}`,
    `apk: sudo apk add ${p.apk}`,
  ];
}

const result = (
  id: string,
  name: string,
  required: boolean,
  status: CheckStatus,
  detail: string,
  fix: string[] = [],
): CheckResult => ({ id, name, required, status, detail, fix });

function firstLine(argv: string[]): string | null {
  try {
    const run = Bun.spawnSync(argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    if (run.exitCode !== 0) return null;
    return run.stdout.toString().split("\n")[0]!.trim();
  } catch {
    return null;
  }
}

function readSysctl(path: string): string | null {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return null;
  }
}

const isRoot = () => process.getuid?.() === 0;
const who = () => (isRoot() ? "as root" : `as uid ${process.getuid?.() ?? "?"}`);

function bwrapPresent(): CheckResult {
  const path = Bun.which("bwrap");
  if (!path) {
    return result(
      "bwrap",
      "bubblewrap installed",
      true,
      "fail",
      "bwrap is not on the PATH",
      installFix("bwrap"),
    );
  }
  const version = firstLine([path, "--version"]) ?? "version unknown";
  return result("bwrap", "bubblewrap installed", true, "ok", `${path} (${version})`);
}

/** The sysctls that switch user namespaces off (bwrap needs one for its sandbox). */
function userNamespaces(): CheckResult {
  const name = "user namespaces";
  if (readSysctl("/proc/sys/user/max_user_namespaces") === "0") {
    return result("userns", name, true, "fail", "user.max_user_namespaces is 0", [
      "sudo sysctl -w user.max_user_namespaces=15000 (and set it in /etc/sysctl.d/ to keep it)",
    ]);
  }
  if (!isRoot()) {
    if (readSysctl("/proc/sys/kernel/unprivileged_userns_clone") === "0") {
      return result("userns", name, true, "fail", "kernel.unprivileged_userns_clone is 0", [
        "sudo sysctl -w kernel.unprivileged_userns_clone=1 (and set it in /etc/sysctl.d/ to keep it)",
      ]);
    }
    if (readSysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") === "1") {
      return result(
        "userns",
        name,
        true,
        "warn",
        "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1); " +
          "bwrap works only with an AppArmor profile that allows it",
        [
          "install the distribution's bwrap AppArmor profile (Ubuntu: apparmor-profiles, then " +
          "sudo apparmor_parser -r /etc/apparmor.d/bwrap-userns-restrict), or " +
          "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0",
        ],
      );
    }
  }
  return result("userns", name, true, "ok", `available ${who()}`);
}

function seccomp(): CheckResult {
  const name = "seccomp filters";
  const arch = seccompArchOf();
  if (!arch) {
    return result(
      "seccomp",
      name,
      true,
      "fail",
      `toolrt has no seccomp filter for CPU architecture ${process.arch}`,
    );
  }
  const status = readSysctl("/proc/self/status") ?? "";
  if (!/^Seccomp:/m.test(status)) {
    return result(
      "seccomp",
      name,
      true,
      "fail",
      "the kernel has no seccomp support (no Seccomp line in /proc/self/status)",
      [
        "use a kernel built with CONFIG_SECCOMP and CONFIG_SECCOMP_FILTER (every major distribution's is)",
      ],
    );
  }
  return result("seccomp", name, true, "ok", `supported; filter for ${arch}`);
}

/** The real thing: toolrt's own sandbox around /bin/true in a scratch workspace. */
async function sandboxStarts(): Promise<CheckResult> {
  const name = "sandbox starts";
  const availability = detectSandbox({ refresh: true });
  if (process.platform === "linux" && !Bun.which("bwrap")) {
    return result("sandbox-start", name, true, "skip", "not tried: bubblewrap is missing (see above)");
  }
  if (!availability.available) {
    return result("sandbox-start", name, true, "fail", availability.reason, sandboxFix(availability.reason));
  }
  // A scratch state dir too: the trial must not create the user's (the state-dir check looks at it).
  const scratch = mkdtempSync(join(tmpdir(), "toolrt-doctor-"));
  const workspace = join(scratch, "ws");
  try {
    mkdirSync(workspace);
    const profile = buildSandboxProfile({}, workspace);
    const wrapped = await wrapCommand(profile, ["/bin/sh", "-c", "exit 0"], {
      cwd: workspace,
      env: { PATH: "/usr/bin:/bin" },
      availability,
      stateDir: join(scratch, "state"),
    });
    const run = await runWrapped(wrapped, ["ignore", "ignore", "pipe"]);
    if (run.exitCode === 0) {
      return result(
        "sandbox-start",
        name,
        true,
        "ok",
        `a command ran in the ${availability.kind} sandbox ${who()}`,
      );
    }
    const said = (run.stderr ?? "").trim().split("\n").slice(0, 3).join(" / ");
    return result(
      "sandbox-start",
      name,
      true,
      "fail",
      `the sandbox failed to start ${who()} (exit ${run.exitCode}${said ? `: ${said}` : ""})`,
      sandboxFix(said),
    );
  } catch (error) {
    return result("sandbox-start", name, true, "fail", (error as Error).message);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function sandboxFix(reason: string): string[] {
  if (/bwrap.*not installed|bubblewrap/.test(reason)) return installFix("bwrap");
  if (/namespace|Operation not permitted|setting up uid map/i.test(reason)) {
    return [
      "bwrap could not create its namespaces: inside a container, run it with user namespaces allowed " +
      "(docker: --security-opt seccomp=unconfined --security-opt apparmor=unconfined, or --privileged); " +
      "on a host, see the user namespaces check",
    ];
  }
  return [];
}

/**
 * Process and memory caps, as the sandbox sets them (wrap.ts): a cgroup of its own with the pids
 * controller binds everyone; otherwise prlimit inside the sandbox, which does not bind root. Without
 * either the sandbox refuses to run, so this check is required.
 */
async function processCaps(): Promise<CheckResult> {
  const name = "process and memory caps";
  const fail = (detail: string, fix: string[]) => result("cgroups", name, true, "fail", detail, fix);
  const prlimit = Bun.which("prlimit");
  const cgroup = createCgroup(DEFAULT_LIMITS);
  if (cgroup) {
    await cgroup.remove();
    if (cgroup.capsMemory) {
      return result("cgroups", name, true, "ok", "a cgroup of its own per sandbox caps processes and memory");
    }
    if (prlimit) return result("cgroups", name, true, "ok", "a cgroup caps processes, prlimit caps memory");
    return fail(
      "a cgroup caps processes, but nothing caps memory: prlimit (util-linux) is missing",
      PRLIMIT_FIX,
    );
  }
  if (isRoot()) {
    return fail(
      "as root without a writable cgroup with the pids controller the sandbox refuses to run " +
        "(prlimit's RLIMIT_NPROC does not bind root)",
      [
        "run toolrt as a user other than root, or in a cgroup whose pids controller it may write " +
        "(a container: --cgroupns=private with the cgroup mounted writable; systemd: a delegated " +
        "subtree, systemd-run --scope -p Delegate=yes)",
      ],
    );
  }
  if (prlimit) {
    return result("cgroups", name, true, "ok", "no writable cgroup; prlimit caps processes and memory");
  }
  return fail("no writable cgroup and no prlimit (util-linux): the sandbox refuses to run", PRLIMIT_FIX);
}

/**
 * As root, a command in a workspace another user owns runs as that user (through setpriv), so the
 * files it makes are theirs; without setpriv the sandbox refuses such a workspace.
 */
function runAsOwner(workspace: string): CheckResult | null {
  if (!isRoot()) return null;
  const name = "setpriv (root runs commands as the workspace owner)";
  const setpriv = Bun.which("setpriv");
  if (setpriv) return result("setpriv", name, true, "ok", setpriv);
  let owner = 0;
  try {
    owner = statSync(workspace).uid;
  } catch {
    // no workspace to judge: said as a warning below
  }
  const fix = [
    "apt: sudo apt-get install -y util-linux",
    "dnf: sudo dnf install -y util-linux",
    "apk: sudo apk add setpriv",
  ];
  return owner !== 0
    ? result(
      "setpriv",
      name,
      true,
      "fail",
      `setpriv is missing and ${workspace} belongs to uid ${owner}: the sandbox refuses to run there`,
      fix,
    )
    : result(
      "setpriv",
      name,
      true,
      "warn",
      "setpriv is missing: workspaces of other users cannot be sandboxed",
      fix,
    );
}

const PRLIMIT_FIX = [
  "apt: sudo apt-get install -y util-linux",
  "dnf: sudo dnf install -y util-linux",
  "apk: sudo apk add util-linux-misc",
];

function program(id: "rg" | "strace", name: string, why: string): CheckResult {
  const path = Bun.which(id);
  if (!path) return result(id, name, false, "warn", `${id} is not on the PATH; ${why}`, installFix(id));
  return result(id, name, false, "ok", `${path} (${firstLine([path, "--version"]) ?? "version unknown"})`);
}

/** The state dir: writable by this user and by no one else (it holds the audit log, grants, tokens). */
function stateDir(dir: string): CheckResult {
  const name = "state dir";
  if (!existsSync(dir)) {
    let parent = dirname(dir);
    while (!existsSync(parent) && parent !== dirname(parent)) parent = dirname(parent);
    try {
      accessSync(parent, constants.W_OK);
    } catch {
      return result("state-dir", name, true, "fail", `${dir} does not exist and ${parent} is not writable`, [
        `mkdir -p ${dir} && chmod 700 ${dir} (as a user who may), or point --state-dir or TOOLRT_HOME elsewhere`,
      ]);
    }
    return result("state-dir", name, true, "ok", `${dir} does not exist yet; it is created on first use`);
  }
  const stat = statSync(dir);
  if (!stat.isDirectory()) {
    return result("state-dir", name, true, "fail", `${dir} is not a directory`, [
      "move it away, or point --state-dir or TOOLRT_HOME elsewhere",
    ]);
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return result("state-dir", name, true, "fail", `${dir} is not writable ${who()}`, [
      `sudo chown -R "$(id -u):$(id -g)" ${dir}`,
    ]);
  }
  const mode = stat.mode & 0o777;
  if (mode & 0o022) {
    return result(
      "state-dir",
      name,
      true,
      "fail",
      `${dir} is writable by others (mode ${mode.toString(8)}): they could edit the audit log and grants`,
      [`chmod 700 ${dir}`],
    );
  }
  if (mode & 0o044) {
    return result(
      "state-dir",
      name,
      true,
      "warn",
      `${dir} is readable by others (mode ${mode.toString(8)})`,
      [
        `chmod 700 ${dir}`,
      ],
    );
  }
  return result("state-dir", name, true, "ok", `${dir} (mode ${mode.toString(8)})`);
}

/** Every policy file toolrt would read here: which were found and loaded, which are broken. */
function policySources(options: LoadOptions): CheckResult[] {
  const loaded = loadPolicy(options);
  const files = (loaded.policy.state.digests ?? []).map((d) => `${d.source}: ${d.file}`);
  const problems = [...loaded.managedErrors, ...loaded.errors].map((e) => e.message);
  const sources = problems.length > 0
    ? result(
      "policy",
      "policy files",
      true,
      "fail",
      `${problems.length} broken: ${problems.join("; ")}; loaded ${files.join(", ")}`,
      [
        "toolrt policy validate FILE lists every problem with its line and column",
      ],
    )
    : result("policy", "policy files", true, "ok", `loaded ${files.join(", ")}`);
  const trusted = isTrusted(options.stateDir, options.cwd);
  const trust = result(
    "trust",
    "workspace trust",
    false,
    "ok",
    trusted
      ? `${options.cwd} is trusted: its .toolrt and .claude allow rules apply`
      : `${options.cwd} is not trusted: its own allow rules are ignored (deny and ask rules apply)`,
  );
  return [sources, trust];
}

export async function runDoctor(input: DoctorInput): Promise<CheckResult[]> {
  const sandbox: CheckResult[] = process.platform === "linux"
    ? [
      bwrapPresent(),
      userNamespaces(),
      seccomp(),
      await sandboxStarts(),
      await processCaps(),
      ...[runAsOwner(input.load.cwd)].filter((r) => r !== null),
    ]
    : [await sandboxStarts()];
  return [
    ...sandbox,
    program("rg", "ripgrep", "Grep falls back to its slower built-in engine"),
    program(
      "strace",
      "strace",
      "toolrt does not need it; it shows which path a failing sandboxed command was refused",
    ),
    stateDir(input.load.stateDir),
    ...policySources(input.load),
  ];
}

/** 0 when every required check passed, 1 otherwise (a required check not tried has not passed). */
export function doctorExitCode(results: CheckResult[]): number {
  return results.some((r) => r.required && (r.status === "fail" || r.status === "skip")) ? 1 : 0;
}
