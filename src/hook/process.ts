/** The hook as a process: stdin in, the host's answer out, exit 0 whatever happens. */
import { AuditLog } from "../audit/log.ts";
import { analyzeBash } from "../bash/analyze.ts";
import type { GlobalOptions } from "../cli/options.ts";
import type { PolicyCompiler } from "../policy/compile-cache.ts";
import { runHook } from "./run.ts";
import type { HookInvocation } from "./types.ts";
import { errorMessage } from "../tool/errors.ts";

/** The answer to one hook call, as this process or the resident helper (with its compile cache) gives it. */
export function answerHook(
  stdin: string,
  invocation: HookInvocation,
  globals: GlobalOptions,
  audit: AuditLog,
  compiler?: PolicyCompiler,
) {
  return runHook(stdin, invocation, globals, {
    analyzeBash,
    audit: (event) => audit.append(event),
    ...(compiler ? { compiler } : {}),
  });
}

export async function runHookProcess(
  invocation: HookInvocation,
  globals: GlobalOptions,
  stdin: Promise<string> = Bun.stdin.text(),
): Promise<number> {
  try {
    const answer = await answerHook(await stdin, invocation, globals, AuditLog.inStateDir(globals.stateDir));
    // Bun's own stdout: process.stdout costs milliseconds to initialise in a fresh process.
    if (answer) await Bun.write(Bun.stdout, `${answer}\n`);
  } catch (error) {
    process.stderr.write(`toolrt hook: ${errorMessage(error)}\n`);
  }
  return 0;
}
