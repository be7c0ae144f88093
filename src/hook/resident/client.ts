/**
 * The hook process's side of the resident helper: ask it over its socket, start it when there is
 * none. Loaded by every hook call, so it uses Bun's own socket, file and stdout calls: in a fresh
 * process `process.stdout` and `node:net` cost several milliseconds to initialise, `node:fs` about one.
 */
import { HELPER_ARGV } from "../args.ts";
import { peerIsUid } from "./peer.ts";
import { decodeReply, encodeLine, type HelperRequest, startMarker } from "./socket.ts";

/** The helper's answer, or whether to start one (none listens, or the one there stopped answering). */
export type HelperOutcome = { answer: string } | { start: boolean };

/** Longer than a warm decision by far; a helper this slow is treated as stuck. */
const REPLY_TIMEOUT_MS = 1_000;
/** After starting a helper, no other start for this long (a helper that cannot bind is not retried per call). */
const START_BACKOFF_MS = 60_000;

/**
 * Asks the helper at `socket` (see `askResident`); a malformed reply is no answer.
 */
export async function askHelper(
  socket: string,
  request: HelperRequest,
  uid: number,
  timeoutMs = REPLY_TIMEOUT_MS,
): Promise<HelperOutcome> {
  const outcome = await askResident(socket, encodeLine(request), uid, timeoutMs);
  return "reply" in outcome ? decodeReply(outcome.reply) ?? { start: false } : outcome;
}

/**
 * Sends one request line to the resident process at `socket` and returns its reply line. It is
 * used only in a directory this user owns that nobody else may write (so no one else can put or
 * swap a socket there), only if it is a socket this user owns that nobody else may open, and only
 * if the process that accepted runs as this user (`peer.ts`). Any
 * error or timeout is no answer (`start`: whether starting one could help). One that does not
 * answer in time loses its socket: it leaves at its next look, and the next call starts another.
 */
export async function askResident(
  socket: string,
  line: string,
  uid: number,
  timeoutMs: number,
  stat: (path: string) => PathStat | undefined | Promise<PathStat | undefined> = statOf,
): Promise<{ reply: string } | { start: boolean }> {
  const dir = await stat(socket.slice(0, socket.lastIndexOf("/")));
  if (!dir) return { start: true };
  if (!dir.isDirectory() || dir.uid !== uid || (dir.mode & 0o022) !== 0) return { start: false };
  const found = await stat(socket);
  if (!found) return { start: true };
  if (!found.isSocket() || found.uid !== uid || (found.mode & 0o077) !== 0) return { start: false };
  type Outcome = { reply: string } | { start: boolean };
  const outcome = await new Promise<Outcome | "timeout">((resolve) => {
    const chunks: string[] = [];
    let done = false;
    let connection: { terminate(): void } | undefined;
    // Whatever ends the exchange closes the connection: an open one would keep this process alive.
    const finish = (outcome: Outcome | "timeout") => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      connection?.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish("timeout"), timeoutMs);
    Bun.connect({
      unix: socket,
      socket: {
        open: (opened) => {
          connection = opened;
          if (done) opened.terminate();
          // Bun's socket carries its descriptor; the process there must be this user's.
          else if (!peerIsUid((opened as { fd?: unknown }).fd, uid)) finish({ start: false });
          else opened.write(line);
        },
        data: (_, chunk) => {
          const text = chunk.toString("utf8");
          chunks.push(text);
          if (text.includes("\n")) {
            const received = chunks.join("");
            finish({ reply: received.slice(0, received.indexOf("\n")) });
          }
        },
        close: () => finish({ start: false }),
        error: () => finish({ start: false }),
      },
    }).catch((error: NodeJS.ErrnoException) => finish({ start: error.code === "ECONNREFUSED" }));
  });
  if (outcome !== "timeout") return outcome;
  await Bun.file(socket).delete().catch(() => {});
  return { start: true };
}

/**
 * Starts a helper for the next calls — detached, in its own session, with this process's
 * environment — unless one was started less than a minute ago (the helper removes the marker
 * once it listens). True when it started one.
 */
export function startHelper(socket: string): Promise<boolean> {
  return startResident(socket, [process.execPath, ...HELPER_ARGV]);
}

/** Starts `argv` as the resident process of `socket` (see `startHelper`); true when it started one. */
export async function startResident(
  socket: string,
  argv: string[],
  backoffMs = START_BACKOFF_MS,
): Promise<boolean> {
  const { closeSync, mkdirSync, openSync, statSync, utimesSync } = await import("node:fs");
  mkdirSync(socket.slice(0, socket.lastIndexOf("/")), { recursive: true, mode: 0o700 });
  const marker = startMarker(socket);
  try {
    closeSync(openSync(marker, "wx", 0o600));
  } catch {
    if (Date.now() - statSync(marker).mtimeMs < backoffMs) return false;
    utimesSync(marker, new Date(), new Date());
  }
  Bun.spawn(argv, {
    cwd: "/",
    stdio: ["ignore", "ignore", "ignore"],
    detached: true,
  }).unref();
  return true;
}

/** What `askResident` reads of the socket and its directory (followed through links). */
export interface PathStat {
  isDirectory(): boolean;
  isSocket(): boolean;
  uid: number;
  mode: number;
}

/**
 * Bun's own stat, asynchronous: a hook process does not load node:fs for it. A caller that has
 * node:fs loaded anyway passes a synchronous one (the first asynchronous call costs ~1 ms of CPU).
 */
async function statOf(path: string): Promise<PathStat | undefined> {
  try {
    return await Bun.file(path).stat();
  } catch {
    return undefined;
  }
}
