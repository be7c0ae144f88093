/**
 * `toolrt sandbox [--workspace DIR] [--allow-write PATH]... [--deny-read PATH]... [--allow-net HOST]...
 * [--unset-env PATTERN]... [--allow-unsandboxed] -- CMD [ARGS...]`, and the hidden in-sandbox helper
 * `toolrt sandbox-bridge --fd N -- CMD...` that carries the network channel.
 */
import type { Command } from "commander";
import { detectSandbox } from "../sandbox/detect.ts";
import { exitStatus } from "../sandbox/exit-status.ts";
import { buildSandboxProfile } from "../sandbox/profile.ts";
import { runWrapped } from "../sandbox/run.ts";
import { timingMark } from "../sandbox/timing.ts";
import { SandboxRefusedError, wrapCommand } from "../sandbox/wrap.ts";
import { UsageError } from "./errors.ts";
import { globalsOf } from "./globals.ts";

const collect = (value: string, previous: string[] = []) => [...previous, value];

interface SandboxOptions {
  workspace?: string;
  allowWrite?: string[];
  denyRead?: string[];
  denyWrite?: string[];
  allowNet?: string[];
  unsetEnv?: string[];
  allowUnsandboxed?: boolean;
}

export function register(program: Command): void {
  program
    .command("sandbox")
    .description("run a command in the platform sandbox (read-only system, writable workspace, no network)")
    .usage("[options] -- CMD [ARGS...]")
    .option("--workspace <dir>", "writable workspace (default: --cwd)")
    .option("--allow-write <path>", "another writable path (repeatable)", collect)
    .option("--deny-read <path>", "a path the command may not read (repeatable)", collect)
    .option("--deny-write <path>", "a path inside a writable one that stays read-only (repeatable)", collect)
    .option("--allow-net <host>", "a host reachable through the sandbox proxy (repeatable)", collect)
    .option(
      "--unset-env <pattern>",
      "also drop environment variables matching this glob (repeatable)",
      collect,
    )
    .option("--allow-unsandboxed", "run without a sandbox (with a warning) when none is usable")
    .argument("<command...>", "the command and its arguments (after --)")
    .action(async (argv: string[], opts: SandboxOptions, command: Command) => {
      process.exitCode = await runSandboxCommand(argv, opts, globalsOf(command).cwd);
    });
  program
    .command("sandbox-bridge", { hidden: true })
    .requiredOption("--fd <n>", "descriptor of the network channel")
    .argument("<command...>")
    .action(async (argv: string[], opts: { fd: string }) => {
      // The channel reader would keep the event loop alive; the command's end is the bridge's end.
      const { runBridge } = await import("../sandbox/bridge.ts");
      process.exit(await runBridge(Number(opts.fd), argv));
    });
}

async function runSandboxCommand(argv: string[], opts: SandboxOptions, cwd: string): Promise<number> {
  timingMark("cli:parsed");
  if (argv.length === 0) throw new UsageError("toolrt sandbox: no command given (put it after --)");
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
  const profile = buildSandboxProfile({
    allowWrite: opts.allowWrite,
    denyRead: opts.denyRead,
    denyWrite: opts.denyWrite,
    allowNet: opts.allowNet,
    unsetEnv: opts.unsetEnv,
  }, opts.workspace ?? cwd);
  timingMark("cli:profile");
  let wrapped;
  try {
    wrapped = await wrapCommand(profile, argv, { cwd, availability });
  } catch (error) {
    if (!(error instanceof SandboxRefusedError)) throw error;
    process.stderr.write(`toolrt sandbox: ${error.message}\n`);
    return 2;
  }
  const result = await runWrapped(wrapped);
  if (result.denials.length) {
    const { explainSandboxFailure } = await import("../sandbox/explain.ts");
    const explanation = explainSandboxFailure({
      output: "",
      exitCode: result.exitCode,
      cwd,
      denials: result.denials,
    }, profile);
    if (explanation) process.stderr.write(`toolrt sandbox: ${explanation}\n`);
  }
  return result.exitCode;
}
