/**
 * The macOS run around the pure profile builder (`sbpl.ts`): the facts a run's profile depends on
 * (the walk over the writable roots, the terminal the command inherits, a log tag), the command
 * line (`sandbox-exec -p PROFILE -D NAME=value ... -- CMD`) behind a launcher that caps the process
 * count, and the run's denials read back from the system log (the trial run that tells whether
 * sandbox-exec works here at all is in detect.ts). UNTESTED on a real Mac: the builders are tested on
 * any platform, the rest is checked by scripts/macos-probe.sh on a Mac.
 */
import { fstatSync, statSync } from "node:fs";
import { entryKind } from "./paths.ts";
import type { SandboxProfile } from "./profile.ts";
import { buildSbpl, type Sbpl } from "./sbpl.ts";
import { checkSbpl } from "./sbpl-check.ts";
import { scanWritableRoots, type TreeIndexes } from "./scan.ts";

export interface SeatbeltCommand {
  argv: string[];
  sbpl: Sbpl;
  /** The run's tag in the system log. */
  tag: string;
  /** Why it cannot run (the profile cannot be enforced, or would not load); nothing ran. */
  problems: string[];
}

/** A fresh tag for one run's denials in the system log. */
export const runTag = () => `toolrt-${crypto.randomUUID().slice(0, 13).replace("-", "")}`;

/**
 * Gathers a run's facts from the disk and this process and builds its command line. `tempDir` is a
 * real path (what Seatbelt sees), as are the profile's.
 */
export function seatbeltCommand(
  profile: SandboxProfile,
  argv: string[],
  options: {
    sandboxExecPath: string;
    tempDir: string;
    proxyPorts: readonly number[];
    tag?: string;
    /** Tree indexes to reuse (default: none kept, a full walk). */
    indexes?: TreeIndexes;
  },
): SeatbeltCommand {
  const tag = options.tag ?? runTag();
  const scan = scanWritableRoots(profile.writableRoots, profile.denyRead, options.indexes);
  const sbpl = buildSbpl(profile, {
    tempDir: options.tempDir,
    proxyPorts: options.proxyPorts,
    sessionTty: sessionTty(),
    tag,
    fs: { kind: entryKind },
    scan,
  });
  const malformed = checkSbpl(sbpl.text, sbpl.params.map(([name]) => name));
  return {
    argv: [
      ...processCapLauncher(profile.limits.maxProcesses),
      ...sandboxExecArgv(options.sandboxExecPath, sbpl, argv),
    ],
    sbpl,
    tag,
    problems: [
      ...sbpl.problems,
      ...malformed.map((p) => `the generated Seatbelt profile is malformed (a toolrt bug): ${p}`),
    ],
  };
}

/** `sandbox-exec -p TEXT -D NAME=value ... -- CMD...`: `--` so a command starting with `-` stays one. */
export function sandboxExecArgv(
  sandboxExecPath: string,
  sbpl: Pick<Sbpl, "text" | "params">,
  argv: string[],
) {
  return [
    sandboxExecPath,
    "-p",
    sbpl.text,
    ...sbpl.params.map(([name, value]) => `-D${name}=${value}`),
    "--",
    ...argv,
  ];
}

/**
 * The launcher before sandbox-exec: macOS has no process-count cgroup, and RLIMIT_NPROC counts all
 * of the user's processes, so the limit is set to what the user runs now plus `maxProcesses`, but
 * never more than half of the room left below the hard limit (a fork bomb stops there and the user's
 * own shell can still start programs). Soft and hard limits both, so the command cannot raise it.
 * zsh with -f: no start-up file runs. A failure exits 125 before anything of the command runs.
 */
export function processCapLauncher(maxProcesses: number): string[] {
  const script = [
    "n=$(/bin/ps -x -o pid= | /usr/bin/wc -l) || exit 125",
    "room=$1; h=$(ulimit -H -u)",
    'if [ "$h" != unlimited ]; then half=$(( (h - n) / 2 )); [ "$half" -lt "$room" ] && room=$half; fi',
    "ulimit -S -u $((n + room)) && ulimit -H -u $((n + room)) || exit 125",
    'shift; exec "$@"',
  ].join("\n");
  return ["/bin/zsh", "-f", "-c", script, "toolrt-sandbox-nproc", String(maxProcesses)];
}

/**
 * The terminal (`/dev/ttysNNN`) on this process's stdin, stdout or stderr, which the command
 * inherits and may reopen by name (libuv does); null when none is a pseudo-terminal. Found by the
 * device number, checked against the device file's own.
 */
export function sessionTty(
  fds: readonly number[] = [0, 1, 2],
  stat: {
    fd(fd: number): { rdev: number; isCharacterDevice(): boolean };
    path(path: string): { rdev: number };
  } = {
    fd: fstatSync,
    path: statSync,
  },
): string | null {
  for (const fd of fds) {
    try {
      const st = stat.fd(fd);
      if (!st.isCharacterDevice()) continue;
      // Darwin's dev_t: major in the top 8 bits, minor in the low 24; ttys00N has minor N.
      const path = `/dev/ttys${String(st.rdev & 0xffffff).padStart(3, "0")}`;
      if (stat.path(path).rdev === st.rdev) return path;
    } catch {
      // closed descriptor, or no such device: not a terminal of ours
    }
  }
  return null;
}

/** One denial of a run, as the system log records it. */
export interface SeatbeltDenial {
  process: string;
  pid: number;
  operation: string;
  /** The path, host or name the operation was denied on (may be empty). */
  target: string;
}

/**
 * The run's denials from `log show --style ndjson` output: events whose message carries the run's
 * tag (the profile's `(with message TAG)`), e.g. `Sandbox: touch(512) deny(1) file-write-create
 * /Users/u/app/.toolrt` followed by the tag. Pure; other runs' and other programs' events are ignored.
 */
export function parseDenials(ndjson: string, tag: string): SeatbeltDenial[] {
  const denials: SeatbeltDenial[] = [];
  for (const line of ndjson.split("\n")) {
    let message: unknown;
    try {
      message = (JSON.parse(line) as { eventMessage?: unknown }).eventMessage;
    } catch {
      continue;
    }
    if (typeof message !== "string" || !message.includes(tag)) continue;
    const found = /Sandbox: (.+?)\((\d+)\) deny\(\d+\) (\S+) ?(.*)/.exec(message);
    if (!found) continue;
    const target = found[4]!.split("\n")[0]!.replace(tag, "").trim();
    denials.push({ process: found[1]!, pid: Number(found[2]), operation: found[3]!, target });
  }
  return denials;
}

/** `log show` for the denials tagged `tag` in the last `seconds` (the system log lags a little). */
export function denialsLogArgv(tag: string, seconds: number): string[] {
  const last = `${Math.ceil(seconds) + 5}s`;
  return [
    "/usr/bin/log",
    "show",
    "--style",
    "ndjson",
    "--last",
    last,
    "--predicate",
    `eventMessage CONTAINS "${tag}"`,
  ];
}

/** Reads the run's denials from the system log (at most `timeoutMs`); none when it cannot. */
export async function readDenials(tag: string, since: Date, timeoutMs = 5_000): Promise<SeatbeltDenial[]> {
  try {
    const seconds = (Date.now() - since.getTime()) / 1000;
    const proc = Bun.spawn(denialsLogArgv(tag, seconds), {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
    });
    const timer = setTimeout(() => proc.kill(), timeoutMs);
    const text = await new Response(proc.stdout).text();
    clearTimeout(timer);
    return parseDenials(text, tag);
  } catch {
    return [];
  }
}

/** Ends what the command left running in its process group (daemons that did not leave it). */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // the group is gone already
  }
}
