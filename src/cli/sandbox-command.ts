/**
 * `toolrt sandbox` without commander: the options as data, the run itself, and the binary's entry
 * for `sandbox` and `sandbox-bridge` (src/cli/entry.ts). The plain shapes (`sandbox [its options]
 * -- CMD...` and `sandbox-bridge --fd N -- CMD...`, as scripts, the escape kit and the network
 * bridge call them) are read here; anything else (help, global options, a malformed line) goes
 * through commander (src/cli/sandbox.ts), which says what is wrong. A sandboxed command is a fresh
 * process each time, and commander's load and set-up alone cost more than bwrap's own start-up.
 */
import { resolve } from "node:path";
import { changedAutorun, describeAutorunChanges, snapshotAutorun } from "../sandbox/autorun.ts";
import { homedir } from "node:os";
import { CREDENTIAL_PATHS, isCredentialPath } from "../sandbox/credentials.ts";
import { detectSandbox } from "../sandbox/detect.ts";
import { parseSize } from "../sandbox/limits.ts";
import { exitStatus } from "../sandbox/exit-status.ts";
import { buildSandboxProfile, type SandboxProfile } from "../sandbox/profile.ts";
import { runWrapped } from "../sandbox/run.ts";
import { timingMark } from "../sandbox/timing.ts";
import type { TreeScanner } from "../sandbox/watch-service.ts";
import { SandboxRefusedError, wrapCommand } from "../sandbox/wrap.ts";
import { reportFailure, UsageError } from "./errors.ts";
import { type GlobalOptions, globalsFrom, loadOptionsOf } from "./options.ts";
import { sandboxMasks } from "./sandbox-masks.ts";
import type { ProgramMask } from "../sandbox/program-masks.ts";

export interface SandboxOptions {
  workspace?: string;
  allowWrite?: string[];
  denyRead?: string[];
  denyWrite?: string[];
  allowNet?: string[];
  unsetEnv?: string[];
  allowLocalhost?: boolean;
  allowUnsandboxed?: boolean;
  printProfile?: string;
  explain?: boolean;
  allowRead?: string[];
  runAsRoot?: boolean;
  privateTmp?: boolean;
  maxProcesses?: string;
  maxMemory?: string;
  maxCpuSeconds?: string;
  maxWallSeconds?: string;
  tmpSize?: string;
  maskProgram?: string[];
  policyRules?: string;
}

interface OptionSpec {
  flag: string;
  key: keyof SandboxOptions;
  /** The value's name in help; none for a switch. */
  value?: string;
  repeatable?: boolean;
  description: string;
}

/** `toolrt sandbox`'s own options: commander's definitions and the fast reader both come from here. */
export const SANDBOX_OPTIONS: readonly OptionSpec[] = [
  { flag: "workspace", key: "workspace", value: "dir", description: "writable workspace (default: --cwd)" },
  {
    flag: "allow-write",
    key: "allowWrite",
    value: "path",
    repeatable: true,
    description: "another writable path (repeatable)",
  },
  {
    flag: "deny-read",
    key: "denyRead",
    value: "path",
    repeatable: true,
    description: "a path the command may not read (repeatable)",
  },
  {
    flag: "deny-write",
    key: "denyWrite",
    value: "path",
    repeatable: true,
    description: "a path inside a writable one that stays read-only (repeatable)",
  },
  {
    flag: "allow-net",
    key: "allowNet",
    value: "host",
    repeatable: true,
    description: "a host reachable through the sandbox proxy (repeatable)",
  },
  {
    flag: "unset-env",
    key: "unsetEnv",
    value: "pattern",
    repeatable: true,
    description: "also drop environment variables matching this glob (repeatable)",
  },
  {
    flag: "allow-read",
    key: "allowRead",
    value: "path",
    repeatable: true,
    description:
      "a credential location hidden by default (~/.npmrc, ~/.ssh ...) the command may read (repeatable)",
  },
  {
    flag: "run-as-root",
    key: "runAsRoot",
    description: "when toolrt runs as root, keep root inside (default: the workspace owner's uid)",
  },
  {
    flag: "private-tmp",
    key: "privateTmp",
    description: "empty /tmp and /var/tmp of the sandbox's own (default: the host's, read-only)",
  },
  { flag: "max-processes", key: "maxProcesses", value: "n", description: "processes at once (default 2048)" },
  { flag: "max-memory", key: "maxMemory", value: "size", description: "memory, e.g. 512M (default 8G)" },
  { flag: "max-cpu-seconds", key: "maxCpuSeconds", value: "n", description: "CPU seconds per process" },
  { flag: "max-wall-seconds", key: "maxWallSeconds", value: "n", description: "seconds until it is killed" },
  {
    flag: "tmp-size",
    key: "tmpSize",
    value: "size",
    description: "size of the private $TMPDIR (default 2G)",
  },
  {
    flag: "mask-program",
    key: "maskProgram",
    value: "name[=why]",
    repeatable: true,
    description:
      "a program the command may not start: a stub saying why covers it (repeatable; the policy's deny and ask rules naming a bare program add theirs, but not programs the command line names)",
  },
  {
    flag: "policy-rules",
    key: "policyRules",
    value: "on|off",
    description:
      "off: block only the --mask-program programs, not those the policy's rules name (default on)",
  },
  {
    flag: "allow-localhost",
    key: "allowLocalhost",
    description: "macOS: let the command listen on and connect to localhost (Linux: always, its own)",
  },
  {
    flag: "allow-unsandboxed",
    key: "allowUnsandboxed",
    description: "run without a sandbox (with a warning) when none is usable",
  },
  {
    flag: "print-profile",
    key: "printProfile",
    value: "platform",
    description: "print the profile toolrt would use on macos (SBPL) or linux (bwrap command line), and exit",
  },
  {
    flag: "explain",
    key: "explain",
    description:
      "show what the sandbox protects in this workspace and any protection it cannot give, and exit",
  },
];

const BY_FLAG = new Map(SANDBOX_OPTIONS.map((o) => [o.flag, o]));

/**
 * `sandbox [its options] -- CMD [ARGS...]` read without commander; undefined for any other shape
 * (then commander reads it, with its messages). Same result as commander for every line it accepts.
 * Only long options, `--name value` or `--name=value`; a separate value that starts with `-` is
 * left to commander too. Read by hand: node:util's parseArgs costs more to load (2-3 ms of CPU)
 * than the whole reading, on every sandboxed command.
 */
export function fastSandboxArgs(
  argv: readonly string[],
): { options: SandboxOptions; command: string[] } | undefined {
  const end = argv.indexOf("--");
  if (argv[0] !== "sandbox" || end < 0 || end === argv.length - 1) return undefined;
  const options: Record<string, string | boolean | string[]> = {};
  for (let i = 1; i < end; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf("=");
    const spec = arg.startsWith("--") ? BY_FLAG.get(arg.slice(2, eq < 0 ? undefined : eq)) : undefined;
    if (!spec) return undefined;
    let value: string | boolean = true;
    if (spec.value) {
      // A separate value that looks like an option is commander's to judge (argv[end] is "--").
      if (eq >= 0) value = arg.slice(eq + 1);
      else if ((value = argv[++i]!).startsWith("-")) return undefined;
    } else if (eq >= 0) {
      return undefined;
    }
    if (spec.repeatable) ((options[spec.key] ??= []) as Array<string | boolean>).push(value);
    else options[spec.key] = value;
  }
  return { options: options as SandboxOptions, command: argv.slice(end + 1) };
}

/** `sandbox-bridge --fd N -- CMD...`, the one shape the network bridge is started with. */
function fastBridgeArgs(argv: readonly string[]): { fd: number; command: string[] } | undefined {
  const [name, flag, fd, end] = argv;
  if (name !== "sandbox-bridge" || flag !== "--fd" || !/^\d+$/.test(fd ?? "") || end !== "--") {
    return undefined;
  }
  return argv.length > 4 ? { fd: Number(fd), command: argv.slice(4) } : undefined;
}

/**
 * The scanner of a `toolrt sandbox` process on Linux: the workspace's change watcher, started after
 * this run when none answers (`watch-service.ts`).
 */
async function watchClient(profile: SandboxProfile, stateDir: string): Promise<TreeScanner | undefined> {
  if (process.platform !== "linux") return undefined;
  const [{ WatchClient }, { sandboxStateDir }] = await Promise.all([
    import("../sandbox/watch-service.ts"),
    import("../sandbox/linux-plan.ts"),
  ]);
  return new WatchClient(sandboxStateDir(stateDir), {
    roots: profile.writableRoots,
    denyRead: profile.denyRead,
  });
}

/** The compiled binary's `sandbox`, `sandbox-bridge` and `sandbox-watch`: the fast reader, else commander. */
export async function sandboxEntry(argv: string[]): Promise<number> {
  const bridge = fastBridgeArgs(argv);
  if (bridge) return await runBridgeCommand(bridge.fd, bridge.command);
  if (argv[0] === "sandbox-watch" && argv.length === 2) {
    const { runWatcher } = await import("../sandbox/watch-service.ts");
    return await runWatcher(argv[1]);
  }
  timingMark("cli:loaded");
  const fast = fastSandboxArgs(argv);
  if (fast) {
    try {
      // No global option came in: each has its default. Colour is never used here, and asking
      // whether stdout is a terminal sets up Bun's stdout stream (1-5 ms of CPU).
      return await runSandboxCommand(fast.command, fast.options, globalsFrom({ color: false }));
    } catch (error) {
      return reportFailure(error, argv);
    }
  }
  const { main } = await import("./main.ts"); // loads the sandbox command's module alone
  return await main(argv);
}

/** The in-sandbox end of the network channel; the command's end is the bridge's (and the process's). */
export async function runBridgeCommand(fd: number, argv: string[]): Promise<never> {
  const { runBridge } = await import("../sandbox/bridge.ts");
  // The channel reader would keep the event loop alive.
  process.exit(await runBridge(fd, argv));
}

/** The profile the command line asks for; a malformed limit or --allow-read is a UsageError. */
function profileOf(opts: SandboxOptions, cwd: string): SandboxProfile {
  for (const path of opts.allowRead ?? []) {
    if (!isCredentialPath(path, homedir())) {
      throw new UsageError(
        `toolrt sandbox: --allow-read ${path}: not a credential location hidden by default; those are: ` +
          CREDENTIAL_PATHS.join(", "),
      );
    }
  }
  return buildSandboxProfile({
    allowWrite: opts.allowWrite,
    denyRead: opts.denyRead,
    allowRead: opts.allowRead,
    denyWrite: opts.denyWrite,
    allowNet: opts.allowNet,
    allowLocalhost: opts.allowLocalhost,
    unsetEnv: opts.unsetEnv,
    runAsRoot: opts.runAsRoot,
    privateTmp: opts.privateTmp,
    limits: {
      maxProcesses: count("max-processes", opts.maxProcesses),
      maxMemoryBytes: size("max-memory", opts.maxMemory),
      maxCpuSeconds: count("max-cpu-seconds", opts.maxCpuSeconds),
      maxWallSeconds: count("max-wall-seconds", opts.maxWallSeconds),
      maxTmpBytes: size("tmp-size", opts.tmpSize),
    },
  }, opts.workspace ?? cwd);
}

function count(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value)) {
    throw new UsageError(`toolrt sandbox: --${flag} ${value}: expected a whole number above 0`);
  }
  return Number(value);
}

function size(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const bytes = parseSize(value);
  if (bytes === null) {
    throw new UsageError(`toolrt sandbox: --${flag} ${value}: expected bytes or a size such as 512M or 2G`);
  }
  return bytes;
}

export async function runSandboxCommand(
  argv: string[],
  opts: SandboxOptions,
  globals: GlobalOptions,
): Promise<number> {
  timingMark("cli:parsed");
  const cwd = globals.cwd;
  if (opts.printProfile !== undefined) {
    const { printProfile } = await import("./sandbox-print.ts");
    return printProfile(opts.printProfile, profileOf(opts, cwd), argv, cwd);
  }
  if (opts.explain) {
    const { explainSandbox } = await import("./sandbox-explain.ts");
    return await explainSandbox(
      profileOf(opts, cwd),
      await masksOf(argv, opts, globals),
      argv[0],
      globals.stateDir,
    );
  }
  if (argv.length === 0) throw new UsageError("toolrt sandbox: no command given (put it after --)");
  // Bad flags are bad usage whether or not this machine has a sandbox: checked first.
  const profile = profileOf(opts, cwd);
  timingMark("cli:profile");
  let programMasks: ProgramMask[];
  try {
    programMasks = await masksOf(argv, opts, globals);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    process.stderr.write(`toolrt sandbox: ${(error as Error).message}\n`);
    return 2;
  }
  timingMark("cli:program-masks");
  const availability = detectSandbox();
  if (!availability.available) {
    if (!opts.allowUnsandboxed) {
      process.stderr.write(
        `toolrt sandbox: no usable sandbox: ${availability.reason}. Refusing to run ` +
          `(--allow-unsandboxed runs it anyway, without protection).\n`,
      );
      return 2;
    }
    process.stderr.write(`toolrt sandbox: warning: running WITHOUT a sandbox: ${availability.reason}\n`);
    const proc = Bun.spawn(argv, { cwd, stdio: ["inherit", "inherit", "inherit"] });
    const code = await proc.exited;
    return exitStatus(code, proc.signalCode);
  }
  const autorunBefore = snapshotAutorun(profile.workspace);
  timingMark("cli:autorun");
  let wrapped;
  try {
    wrapped = await wrapCommand(profile, argv, {
      cwd,
      availability,
      // The state dir this run keeps its indexes and quarantine in is the one hidden from it.
      stateDir: globals.stateDir,
      scanner: await watchClient(profile, globals.stateDir),
      ...(programMasks.length ? { programMasks } : {}),
    });
  } catch (error) {
    if (!(error instanceof SandboxRefusedError)) throw error;
    process.stderr.write(`toolrt sandbox: ${error.message}\n`);
    return 2;
  }
  timingMark("cli:wrapped");
  const started = new Date();
  const result = await runWrapped(wrapped);
  if (result.quarantined.length) {
    const { describeQuarantined } = await import("../sandbox/quarantine.ts");
    for (const q of result.quarantined) process.stderr.write(`toolrt sandbox: ${describeQuarantined(q)}\n`);
  }
  const changes = changedAutorun(autorunBefore, snapshotAutorun(profile.workspace), profile.workspace);
  if (changes.length) {
    process.stderr.write(`toolrt sandbox: the command ${describeAutorunChanges(changes)}\n`);
  }
  const denied = await seatbeltDenials(wrapped.logTag, result.exitCode, started);
  const killedByLimit = result.exitCode === 137 || result.exitCode === 152;
  if (result.denials.length || denied.length || killedByLimit) {
    const { explainSandboxFailure } = await import("../sandbox/explain.ts");
    const explanation = explainSandboxFailure({
      output: denied.join("\n"),
      exitCode: result.exitCode,
      cwd,
      denials: result.denials,
    }, profile);
    if (explanation) process.stderr.write(`toolrt sandbox: ${explanation}\n`);
  }
  timingMark("cli:end");
  return result.exitCode;
}

/** The programs this run keeps its command from starting (`sandbox-masks.ts`). */
function masksOf(argv: string[], opts: SandboxOptions, globals: GlobalOptions): Promise<ProgramMask[]> {
  const workspace = opts.workspace === undefined ? globals.cwd : resolve(globals.cwd, opts.workspace);
  return sandboxMasks(argv, {
    given: opts.maskProgram ?? [],
    ...(opts.policyRules === undefined ? {} : { policyRules: opts.policyRules }),
    load: { ...loadOptionsOf(globals), cwd: workspace },
  });
}

/**
 * macOS: after a failed run, what Seatbelt denied it, from the system log (found by the run's tag),
 * printed and returned as error lines the explanation reads paths from.
 */
async function seatbeltDenials(tag: string | null, exitCode: number, started: Date): Promise<string[]> {
  if (!tag || exitCode === 0) return [];
  const { readDenials } = await import("../sandbox/seatbelt.ts");
  const lines = (await readDenials(tag, started)).map((d) =>
    `${d.target}: Operation not permitted (Seatbelt denied ${d.operation} to ${d.process}[${d.pid}])`
  );
  for (const line of lines) process.stderr.write(`toolrt sandbox: ${line}\n`);
  return lines;
}
