/** The hook as a process: stdin in, the host's answer out, exit 0 whatever happens. */
import { AuditLog } from "../audit/log.ts";
import { analyzeBash } from "../bash/analyze.ts";
import type { GlobalOptions } from "../cli/globals.ts";
import { runHook } from "./run.ts";
import type { HostName } from "./types.ts";

export async function runHookProcess(host: HostName, globals: GlobalOptions): Promise<number> {
  try {
    const audit = AuditLog.inStateDir(globals.stateDir);
    const stdin = await Bun.stdin.text();
    const answer = await runHook(stdin, host, globals, {
      analyzeBash,
      audit: (event) => audit.append(event),
    });
    if (answer) process.stdout.write(`${answer}\n`);
  } catch (error) {
    process.stderr.write(`toolrt hook: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  return 0;
}
