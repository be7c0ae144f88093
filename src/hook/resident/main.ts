/** `toolrt hook --resident-helper`: the helper of this build, for this user and environment. */
import { AuditLog } from "../../audit/log.ts";
import { globalsFrom } from "../../cli/options.ts";
import { CompileCache } from "../../policy/compile-cache.ts";
import { answerHook } from "../process.ts";
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
    answer: (request) =>
      answerHook(
        request.stdin,
        { host: request.host, sandbox: request.sandbox },
        globalsFrom({ cwd: request.cwd }),
        audit,
        compiler,
      ),
    idleMs: IDLE_MS,
    checkMs: CHECK_MS,
  });
  return 0;
}
