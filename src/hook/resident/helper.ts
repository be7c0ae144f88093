/**
 * The resident helper: one long-lived process per socket (see socket.ts) that answers hook calls
 * with the parser and the code already loaded. Each call is decided exactly as in a hook process —
 * every policy source is read again per call, and compiled again when its text changed (the
 * policy's CompileCache) — only the start-up is saved. It leaves when idle, and as soon as its
 * socket is no longer the one at its path (removed, or replaced by another helper).
 */
import { chmodSync, lstatSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { dirname } from "node:path";
import { peerIsUid } from "./peer.ts";
import { decodeRequest, encodeLine, type HelperRequest, startMarker } from "./socket.ts";

export interface HelperOptions {
  socket: string;
  build: string;
  answer: (request: HelperRequest) => Promise<string>;
  /** Leave after this long without a call. */
  idleMs: number;
  /** How often to look at the idle time and the socket. */
  checkMs: number;
}

/** Serves until idle or displaced; resolves when the helper has stopped (or another one already runs). */
export function serveHelper(options: HelperOptions): Promise<void> {
  return serveResident({
    ...options,
    // A request of another build (or none) is left unanswered.
    handle: async (line) => {
      const request = decodeRequest(line);
      if (request?.build !== options.build) return undefined;
      return encodeLine({ answer: await options.answer(request) });
    },
  });
}

export interface ResidentOptions {
  socket: string;
  /** One request line in, one reply (with its newline) out; undefined closes the connection unanswered. */
  handle: (line: string) => Promise<string | undefined>;
  /** Leave after this long without a call. */
  idleMs: number;
  /** How often to look at the idle time and the socket. */
  checkMs: number;
  /** Looked at with the idle time: false makes the process leave at once (what it served is gone). */
  stillNeeded?: () => boolean;
  /** Called once listening, before the first request is taken. */
  onListening?: () => void;
}

/**
 * A resident process's server: one request line per connection on a unix socket that only this
 * user can open, in a directory only this user can write. Serves until idle, no longer needed or
 * displaced (its socket removed or replaced by another's); resolves when it has stopped, or at once
 * when another one already answers there.
 */
export async function serveResident(options: ResidentOptions): Promise<void> {
  mkdirSync(dirname(options.socket), { recursive: true, mode: 0o700 });
  if (await listening(options.socket)) return;
  let busy = 0;
  let lastCall = Date.now();
  const server = createServer((connection) => {
    busy++;
    lastCall = Date.now();
    connection.on("close", () => {
      busy--;
      lastCall = Date.now();
    });
    // Only this user's processes are answered (the socket's modes say so too; this asks the kernel).
    const fd = (connection as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
    if (peerIsUid(fd, process.getuid?.() ?? -1)) serveConnection(connection, options.handle);
    else connection.destroy();
  });
  const inode = await bind(server, options.socket);
  rmSync(startMarker(options.socket), { force: true });
  options.onListening?.();
  const ours = () => {
    try {
      return lstatSync(options.socket).ino === inode;
    } catch {
      return false;
    }
  };
  await new Promise<void>((resolve) => {
    const check = setInterval(() => {
      const displaced = !ours();
      const needed = options.stillNeeded?.() ?? true;
      if (!displaced && needed && (busy > 0 || Date.now() - lastCall < options.idleMs)) return;
      clearInterval(check);
      if (!displaced) rmSync(options.socket, { force: true });
      server.close(() => resolve());
    }, options.checkMs);
  });
}

/** Listens on a private temporary name, then moves the socket into place in one rename. */
async function bind(server: Server, socket: string): Promise<number> {
  const temporary = `${socket}.${process.pid}`;
  rmSync(temporary, { force: true });
  const umask = process.umask(0o077);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(temporary, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(temporary, 0o600);
  renameSync(temporary, socket);
  return lstatSync(socket).ino;
}

/** One request line in, one reply out; anything unexpected closes the connection unanswered. */
function serveConnection(connection: Socket, handle: ResidentOptions["handle"]): void {
  let received = "";
  let taken = false;
  connection.setEncoding("utf8");
  connection.on("error", () => connection.destroy());
  connection.on("data", (chunk: string) => {
    if (taken) return;
    received += chunk;
    const end = received.indexOf("\n");
    if (end < 0) return;
    taken = true;
    handle(received.slice(0, end)).then(
      (reply) => reply === undefined ? connection.destroy() : connection.end(reply),
      () => connection.destroy(),
    );
  });
}

/** Whether a helper already answers at this path. */
function listening(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socket);
    probe.on("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.on("error", () => resolve(false));
  });
}
