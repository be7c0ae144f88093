/**
 * The hook process's side of the resident helper: ask it over its socket, start it when there is
 * none. Loaded by every hook call, so it uses Bun's own socket, file and stdout calls: `node:net`,
 * `node:fs` and `process.stdout` each cost milliseconds to initialise in a fresh process.
 */
import { HELPER_ARGV } from "../args.ts";
import { decodeReply, encodeLine, type HelperRequest } from "./socket.ts";

/** The helper's answer, or why there is none: `absent` when no helper listens (start one). */
export type HelperOutcome = { answer: string } | { absent: boolean };

/** Longer than a warm decision by far; a helper this slow is treated as gone for this call. */
const REPLY_TIMEOUT_MS = 1_000;

/**
 * Asks the helper at `socket`. Only a socket this user owns and nobody else may open is used; any
 * error, timeout or malformed reply is no answer, and the caller decides in its own process.
 */
export async function askHelper(
  socket: string,
  request: HelperRequest,
  uid: number,
  timeoutMs = REPLY_TIMEOUT_MS,
): Promise<HelperOutcome> {
  let stat;
  try {
    stat = await Bun.file(socket).stat();
  } catch {
    return { absent: true };
  }
  if (!stat.isSocket() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return { absent: false };
  return new Promise((resolve) => {
    let received = "";
    let done = false;
    const finish = (outcome: HelperOutcome, connection?: { end(): void }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      connection?.end();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ absent: false }), timeoutMs);
    Bun.connect({
      unix: socket,
      socket: {
        open: (connection) => void connection.write(encodeLine(request)),
        data: (connection, chunk) => {
          received += chunk.toString("utf8");
          const end = received.indexOf("\n");
          if (end >= 0) finish(decodeReply(received.slice(0, end)) ?? { absent: false }, connection);
        },
        close: () => finish({ absent: false }),
        error: () => finish({ absent: false }),
      },
    }).catch((error: NodeJS.ErrnoException) => finish({ absent: error.code === "ECONNREFUSED" }));
  });
}

/** Starts a helper for the next calls: detached, in its own session, with this process's environment. */
export function startHelper(): void {
  Bun.spawn([process.execPath, ...HELPER_ARGV], {
    cwd: "/",
    stdio: ["ignore", "ignore", "ignore"],
    detached: true,
  }).unref();
}
