/** The hook as a process: stdin in, the host's answer out, exit 0 whatever happens. */
import { policyDigestsOf } from "../audit/decision.ts";
import { AuditLog } from "../audit/log.ts";
import { analyzeBash } from "../bash/analyze.ts";
import type { GlobalOptions } from "../cli/options.ts";
import type { PolicyCompiler } from "../policy/compile-cache.ts";
import { flushTelemetry, openTelemetry, type Telemetry } from "../telemetry/index.ts";
import { runHook } from "./run.ts";
import type { HookInvocation } from "./types.ts";
import { errorMessage } from "../tool/errors.ts";

/**
 * How long a hook process waits for the collector after answering (the host waits for it to exit);
 * what is not delivered by then is kept for the resident helper or a later process.
 */
const HOOK_EXIT_DEADLINE_MS = 25;

export interface AnswerOptions {
  /** The resident helper keeps a CompileCache. */
  compiler?: PolicyCompiler;
  telemetry?: Telemetry;
}

/**
 * The answer to one hook call, as this process or the resident helper gives it. Each event goes
 * to the audit log and, from the same place, to telemetry.
 */
export function answerHook(
  stdin: string,
  invocation: HookInvocation,
  globals: GlobalOptions,
  audit: AuditLog,
  options: AnswerOptions = {},
) {
  const { telemetry, compiler } = options;
  return runHook(stdin, invocation, globals, {
    analyzeBash,
    audit: (event, policy) => {
      const record = audit.append(event);
      (policy ? telemetry?.withPolicy(policyDigestsOf(policy)) : telemetry)?.record(record);
    },
    ...(compiler ? { compiler } : {}),
  });
}

/** Telemetry for hook calls: never a word on stderr (the host may show it); losses go to the audit log. */
export async function hookTelemetry(globals: GlobalOptions, audit: AuditLog): Promise<Telemetry | undefined> {
  try {
    return (await openTelemetry({
      cwd: globals.cwd,
      stateDir: globals.stateDir,
      onDropped: (detail) => audit.append({ kind: "notice", detail }),
    })).telemetry;
  } catch {
    return undefined;
  }
}

export async function runHookProcess(
  invocation: HookInvocation,
  globals: GlobalOptions,
  stdin: Promise<string> = Bun.stdin.text(),
  options: { handOff?: boolean } = {},
): Promise<number> {
  try {
    const audit = AuditLog.inStateDir(globals.stateDir);
    const telemetry = await hookTelemetry(globals, audit);
    const answer = await answerHook(await stdin, invocation, globals, audit, telemetry ? { telemetry } : {});
    // Bun's own stdout: process.stdout costs milliseconds to initialise in a fresh process.
    if (answer) await Bun.write(Bun.stdout, `${answer}\n`);
    // A helper was just started: it sends what this call recorded; otherwise wait a little, no more.
    if (telemetry) await flushTelemetry(options.handOff ? 0 : HOOK_EXIT_DEADLINE_MS);
  } catch (error) {
    process.stderr.write(`toolrt hook: ${errorMessage(error)}\n`);
  }
  return 0;
}
