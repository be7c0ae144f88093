/**
 * `toolrt sandbox --print-profile macos|linux`: the profile toolrt would use on that platform, made
 * here by the same builders from this machine's disk (any platform can print either), so it can be
 * reviewed, diffed, and checked on a Mac with scripts/macos-probe.sh. Per-run values are shown as
 * stand-ins: the run directory (`toolrt-sbx-XXXXXX`), the log tag, the proxy's ports.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bwrapArgs, mountTakesFd } from "../sandbox/bwrap.ts";
import { planOnDisk } from "../sandbox/linux-plan.ts";
import { resolveReal } from "../sandbox/paths.ts";
import type { SandboxProfile } from "../sandbox/profile.ts";
import { seatbeltCommand } from "../sandbox/seatbelt.ts";
import { shellQuote } from "../tool/shell-quote.ts";
import { UsageError } from "./errors.ts";

/** Where a run's directory would be: one per run, made under the temp dir. */
const RUN_DIR = join(resolveReal(tmpdir()) ?? tmpdir(), "toolrt-sbx-XXXXXX");
/** Stand-ins for the proxy's ports, which are chosen per run. */
const PROXY_PORTS = [3128, 1080];

/** Prints the profile; 0, or 2 when the sandbox would refuse this profile (with the reasons). */
export function printProfile(platform: string, profile: SandboxProfile, argv: string[], cwd: string): number {
  const command = argv.length ? argv : ["CMD"];
  const printed = platform === "macos"
    ? macosProfile(profile, command)
    : platform === "linux"
    ? linuxCommandLine(profile, command, cwd)
    : undefined;
  if (!printed) {
    throw new UsageError(`toolrt sandbox: --print-profile takes macos or linux, not "${platform}"`);
  }
  if (printed.problems.length) {
    process.stderr.write(`toolrt sandbox: the sandbox refuses to run: ${printed.problems.join("; ")}\n`);
    return 2;
  }
  process.stdout.write(printed.text);
  return 0;
}

function macosProfile(profile: SandboxProfile, argv: string[]): { text: string; problems: string[] } {
  const command = seatbeltCommand(profile, argv, {
    sandboxExecPath: "/usr/bin/sandbox-exec",
    tempDir: join(RUN_DIR, "tmp"),
    proxyPorts: profile.allowNet.length ? PROXY_PORTS : [],
    tag: "toolrt-XXXXXXXXXXXX",
  });
  return { text: command.sbpl.text, problems: command.problems };
}

/** bwrap's command line, one argument a line, quoted for a shell. */
function linuxCommandLine(
  profile: SandboxProfile,
  argv: string[],
  cwd: string,
): { text: string; problems: string[] } {
  const { plan } = planOnDisk(profile, join(RUN_DIR, "tmp"));
  let next = 3;
  const mountFds = plan.mounts.map((m) => (mountTakesFd(m) ? ++next : -1));
  const args = bwrapArgs(plan, {
    bwrapPath: Bun.which("bwrap") ?? "bwrap",
    cwd,
    seccompFd: 3,
    mountFds,
    privateTmp: { path: join(RUN_DIR, "tmp"), sizeBytes: profile.limits.maxTmpBytes },
  });
  const header = [
    "# toolrt's bwrap command line for this profile. Decided per run, not shown: the cgroup launcher",
    "# or prlimit before it (process, memory and CPU caps), setpriv when root runs it for a user's",
    "# workspace, the wall-time timer, the network bridge before the command.",
    "# Descriptor 3 carries the seccomp program; each --bind-fd/--ro-bind-fd descriptor is its path",
    "# opened without following links, each --ro-bind-data one an empty stream:",
    ...plan.mounts.flatMap((
      m,
      i,
    ) => (mountTakesFd(m) ? [`#   ${mountFds[i]}: ${JSON.stringify(m.path)}`] : [])),
    ...plan.absent.map((a) => `# missing, quarantined after the run if created: ${JSON.stringify(a.path)}`),
    ...plan.notices.map((n) => `# ${n.message}; ${n.remedy}`),
  ];
  const lines = [...args, ...argv].map(shellQuote);
  return { text: [...header, lines.join(" \\\n  ")].join("\n") + "\n", problems: plan.refusals };
}
