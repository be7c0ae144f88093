/** `toolrt hook --resident-helper`: the helper of this build, for this user and environment. */
import { AuditLog } from "../../audit/log.ts";
import { globalsFrom } from "../../cli/options.ts";
import { CompileCache } from "../../policy/compile-cache.ts";
import { EXIT_DEADLINE_MS, flushTelemetry } from "../../telemetry/registry.ts";
import { answerHook, hookTelemetry } from "../process.ts";
import { serveHelper } from "./helper.ts";
import { BUILD_HASH, helperSocket } from "./socket.ts";

const IDLE_MS = 10 * 60_000;
const CHECK_MS = 5_000;

export async function runResidentHelper(): Promise<number> {
  const socket = helperSocket(BUILD_HASH, process.env, process.getuid?.() ?? -1);
  if (!BUILD_HASH || !socket) return 0;
  const audit = AuditLog.inStateDir(globalsFrom({}).stateDir);
  const compiler = new CompileCache();
  await serveHelper({
    socket,
    build: BUILD_HASH,
    answer: async (request) => {
      const globals = globalsFrom({ cwd: request.cwd });
      // Read per call, like the policy: a managed policy that turns telemetry on applies at once.
      const telemetry = await hookTelemetry(globals, audit);
      return answerHook(request.stdin, { host: request.host, sandbox: request.sandbox }, globals, audit, {
        compiler,
        ...(telemetry ? { telemetry } : {}),
      });
    },
    idleMs: IDLE_MS,
    checkMs: CHECK_MS,
  });
  await flushTelemetry(EXIT_DEADLINE_MS);
  return 0;
}
