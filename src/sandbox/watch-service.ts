/**
 * The change watcher for separate `toolrt sandbox` processes (a CLI call, a hook's rewritten
 * command): a per-workspace resident process (`toolrt sandbox-watch`) keeps a `TreeWatch` and its
 * indexes in memory and answers each call's scan over a unix socket. Long-lived runtimes (agent,
 * serve, mcp serve) keep a `TreeWatch` in-process instead (`sandboxed-launch.ts`).
 *
 * Trust: the socket is in `<state dir>/sandbox/watch/`, which is this user's, closed to others
 * (0700; a client refuses a directory others may write and a socket it does not own or that others
 * may open: `askResident`), and hidden in every sandbox (the state dir is masked there, and the
 * seccomp filter refuses unix sockets anyway). So only this user, outside any sandbox, can start
 * the watcher or talk to it.
 *
 * A call that finds no watcher (none yet, one still starting, a stuck or failed one) revalidates in
 * full in its own process, as without a watcher, and says so; after its run it starts one, which
 * reads the index that run saved and listens once it has watched every directory.
 */
import { lstatSync, statSync } from "node:fs";
import { join } from "node:path";
import { askResident, type PathStat, startResident } from "../hook/resident/client.ts";
import { BUILD_HASH } from "../hook/resident/socket.ts";
import { scanGitEntries, type ScanResult, scanWritableRoots, TreeIndexes } from "./scan.ts";
import { timingMark } from "./timing.ts";
import type { Revalidation, TreeWatch, WatchedScan } from "./tree-watch.ts";

/** What a run asks of a scanner: the scan before it, the `.git` entries after it. */
export interface TreeScanner {
  scan(roots: string[], denyRead: string[]): WatchedScan | Promise<WatchedScan>;
  /** `since`: the before-run scan's `generation`, if any (see `TreeWatch.gitEntries`). */
  gitEntries(roots: string[], since?: string): GitEntries | Promise<GitEntries>;
  /** Called once the run is over (a client starts the watcher then, if none answered). */
  finish?(): void | Promise<void>;
}

export type GitEntries = Pick<ScanResult, "nestedGitDirs" | "gitPointers"> & {
  revalidation: Revalidation;
  /** Nothing was created, removed or renamed in the watched trees since the before-run scan. */
  unchanged?: boolean;
};

/** Every directory is looked at (one lstat each): the scanner without a watcher. */
export class FullScanner implements TreeScanner {
  constructor(private readonly indexes: TreeIndexes, private readonly reason: string) {}
  scan(roots: string[], denyRead: string[]): WatchedScan {
    return { scan: scanWritableRoots(roots, denyRead, this.indexes), revalidation: this.revalidation() };
  }
  gitEntries(roots: string[]): GitEntries {
    return { ...scanGitEntries(roots, this.indexes), revalidation: this.revalidation() };
  }
  private revalidation(): Revalidation {
    return { mode: "full", reason: this.reason };
  }
}

/** A `TreeWatch` in this process (long-lived runtimes). */
export class InProcessScanner implements TreeScanner {
  constructor(private readonly watch: TreeWatch) {}
  scan(roots: string[], denyRead: string[]): WatchedScan {
    return this.watch.scan(roots, denyRead);
  }
  gitEntries(roots: string[], since?: string): GitEntries {
    return this.watch.gitEntries(roots, since);
  }
}

interface WatchRequest {
  build: string;
  op: "scan" | "git";
  roots: string[];
  denyRead: string[];
  since?: string;
}

type WatchReply = WatchedScan | { git: GitEntries };

/** Unix socket paths longer than this do not fit `sockaddr_un` everywhere: no watcher then. */
const MAX_SOCKET_PATH = 100;
/** A full pass after lost events takes seconds at a million files; a watcher slower than this is stuck. */
const REPLY_TIMEOUT_MS = 20_000;
const WATCH_COMMAND = "sandbox-watch";
/**
 * A watcher is started only for trees of at least this many directories (measured: a full
 * revalidation costs ~3 µs of CPU per directory, twice a run; a round trip ~1–2 ms).
 * `TOOLRT_SANDBOX_WATCH_MIN_DIRS` overrides it (tests).
 */
const WATCH_MIN_DIRS = 1_000;
const build = () => BUILD_HASH ?? "source";

/** The socket of the watcher of these trees for this user and build; undefined when there can be none. */
export function watchSocket(
  sandboxDir: string,
  roots: string[],
  denyRead: string[],
  uid: number,
): string | undefined {
  const key = [build(), String(uid), ...roots, "\0deny", ...denyRead].join("\0");
  const digest = new Bun.CryptoHasher("sha256").update(key).digest("hex").slice(0, 24);
  const path = join(sandboxDir, "watch", `${digest}.sock`);
  return path.length <= MAX_SOCKET_PATH ? path : undefined;
}

/** The argv of a watcher process (the compiled binary, or this checkout's entry under Bun). */
function watcherArgv(sandboxDir: string, roots: string[], denyRead: string[]): string[] {
  const spec = JSON.stringify({ sandboxDir, roots, denyRead });
  return BUILD_HASH
    ? [process.execPath, WATCH_COMMAND, spec]
    : [process.execPath, join(import.meta.dir, "..", "cli", "entry.ts"), WATCH_COMMAND, spec];
}

/**
 * A `toolrt sandbox` process's scanner: asks the workspace's watcher, else revalidates in full here
 * and starts one after the run (`finish`). `start: false` only asks (for `--explain`).
 */
export class WatchClient implements TreeScanner {
  private readonly socket: string | undefined;
  private fallback: FullScanner | null = null;
  private startAfter = false;
  private readonly uid = process.getuid?.() ?? -1;
  /** Why this call revalidates in full, once it knows it does. */
  private reason = "";

  constructor(
    private readonly sandboxDir: string,
    private readonly trees: { roots: string[]; denyRead: string[] },
    private readonly options: { start?: boolean; env?: Record<string, string | undefined> } = {},
  ) {
    this.socket = watchSocket(sandboxDir, trees.roots, trees.denyRead, this.uid);
  }

  async scan(roots: string[], denyRead: string[]): Promise<WatchedScan> {
    const reply = await this.ask({ build: build(), op: "scan", roots, denyRead });
    if (reply && "scan" in reply) return reply;
    const scanned = this.full().scan(roots, denyRead);
    // Below this size a full revalidation costs less than a watcher's round trip (and its process).
    if (scanned.scan.entries < this.minDirs()) this.startAfter = false;
    return scanned;
  }

  async gitEntries(roots: string[], since?: string): Promise<GitEntries> {
    if (!this.fallback) {
      const request = { build: build(), op: "git" as const, roots, denyRead: this.trees.denyRead };
      const reply = await this.ask(since === undefined ? request : { ...request, since });
      if (reply && "git" in reply) return reply.git;
    }
    return this.full().gitEntries(roots);
  }

  async finish(): Promise<void> {
    if (!this.startAfter || !this.socket || this.options.start === false) return;
    this.startAfter = false;
    await startResident(this.socket, watcherArgv(this.sandboxDir, this.trees.roots, this.trees.denyRead))
      .catch(() => false); // no watcher: the next call revalidates in full again
  }

  private minDirs(): number {
    const value = (this.options.env ?? process.env).TOOLRT_SANDBOX_WATCH_MIN_DIRS;
    return value && /^\d+$/.test(value) ? Number(value) : WATCH_MIN_DIRS;
  }

  private full(): FullScanner {
    this.fallback ??= new FullScanner(new TreeIndexes(join(this.sandboxDir, "index")), this.reason);
    return this.fallback;
  }

  private async ask(request: WatchRequest): Promise<WatchReply | null> {
    const env = this.options.env ?? process.env;
    if (env.TOOLRT_SANDBOX_WATCH === "0") {
      this.reason = "the change watcher is switched off (TOOLRT_SANDBOX_WATCH=0)";
      return null;
    }
    if (!this.socket) {
      this.reason = `no change watcher: its socket path under ${this.sandboxDir} would be too long`;
      return null;
    }
    const outcome = await askResident(
      this.socket,
      `${JSON.stringify(request)}\n`,
      this.uid,
      REPLY_TIMEOUT_MS,
      statFollowing,
    );
    timingMark("watch:asked");
    if ("reply" in outcome) {
      const reply = parseReply(outcome.reply);
      if (reply) return reply;
      this.reason = "the change watcher's reply was malformed";
      return null;
    }
    this.startAfter = outcome.start;
    this.reason = outcome.start
      ? `no change watcher runs for this workspace (one starts after a run that finds ${this.minDirs()} directories or more)`
      : "the change watcher's socket is not this user's alone, or it did not answer";
    return null;
  }
}

/** `stat`, synchronous (node:fs is loaded here anyway); undefined for any failure. */
function statFollowing(path: string): PathStat | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function parseReply(line: string): WatchReply | null {
  try {
    const value = JSON.parse(line) as WatchReply;
    if ("scan" in value && Array.isArray(value.scan?.linkedOutside)) return value;
    if ("git" in value && Array.isArray(value.git?.nestedGitDirs)) return value;
  } catch {
    // below
  }
  return null;
}

/** How often the watcher reads its queue between calls, and looks at its idle time and socket. */
const DRAIN_EVERY_MS = 250;
const CHECK_EVERY_MS = 2_000;
const DEFAULT_IDLE_MS = 10 * 60_000;

/**
 * `toolrt sandbox-watch SPEC`: the watcher of one workspace's trees. Watches and revalidates every
 * tree before it listens, so a call either finds none or one that is synced. Leaves when idle
 * (`TOOLRT_SANDBOX_WATCH_IDLE_MS`, default 10 minutes), when a watched root or the state dir is
 * gone, when its socket is taken over, or at once when the watcher cannot work here.
 */
export async function runWatcher(specText: string | undefined): Promise<number> {
  let spec: { sandboxDir: string; roots: string[]; denyRead: string[] };
  try {
    spec = JSON.parse(specText ?? "");
    if (typeof spec.sandboxDir !== "string" || !Array.isArray(spec.roots) || !Array.isArray(spec.denyRead)) {
      throw new Error("bad spec");
    }
  } catch {
    process.stderr.write("toolrt sandbox-watch: internal command, started by `toolrt sandbox`\n");
    return 2;
  }
  const { sandboxDir, roots, denyRead } = spec;
  const socket = watchSocket(sandboxDir, roots, denyRead, process.getuid?.() ?? -1);
  if (!socket) return 0;
  // Loaded here, not by every `toolrt sandbox` call that only asks (node:net alone costs ~1 ms).
  const [{ serveResident }, { TreeWatch }] = await Promise.all([
    import("../hook/resident/helper.ts"),
    import("./tree-watch.ts"),
  ]);
  const watch = new TreeWatch(sandboxDir, { drainEveryMs: DRAIN_EVERY_MS });
  watch.scan(roots, denyRead);
  if (watch.failure) {
    watch.close();
    return 0;
  }
  const idle = Number(process.env.TOOLRT_SANDBOX_WATCH_IDLE_MS);
  const present = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  await serveResident({
    socket,
    idleMs: idle > 0 ? idle : DEFAULT_IDLE_MS,
    checkMs: Math.min(CHECK_EVERY_MS, idle > 0 ? idle : CHECK_EVERY_MS),
    stillNeeded: () => !watch.failure && present(sandboxDir) && roots.every(present),
    handle: async (line) => {
      const request = parseRequest(line);
      // Another build, or other trees than this watcher's: no answer, the caller revalidates itself.
      if (!request || request.build !== build() || !sameTrees(request, spec)) return undefined;
      const reply: WatchReply = request.op === "scan"
        ? watch.scan(request.roots, request.denyRead)
        : { git: watch.gitEntries(request.roots, request.since) };
      return `${JSON.stringify(reply)}\n`;
    },
  });
  watch.close();
  return 0;
}

function parseRequest(line: string): WatchRequest | null {
  try {
    const value = JSON.parse(line) as WatchRequest;
    const strings = (list: unknown) => Array.isArray(list) && list.every((s) => typeof s === "string");
    return (value.op === "scan" || value.op === "git") && strings(value.roots) && strings(value.denyRead) &&
        (value.since === undefined || typeof value.since === "string")
      ? value
      : null;
  } catch {
    return null;
  }
}

function sameTrees(request: WatchRequest, spec: { roots: string[]; denyRead: string[] }): boolean {
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i]);
  return same(request.roots, spec.roots) && (request.op === "git" || same(request.denyRead, spec.denyRead));
}
