/**
 * Reads `strace -f -y` output into the events the oracle judges: files read, files written or
 * changed, programs run, and sockets connected. With `-y` every descriptor (and `AT_FDCWD`, as the
 * process's working directory) is printed with its path, so relative names resolve exactly.
 */
import { isAbsolute, join, normalize } from "node:path";

export type TraceEvent =
  | { kind: "read"; pid: number; path: string }
  | { kind: "write"; pid: number; path: string; call: string }
  | { kind: "exec"; pid: number; path: string; argv: string[] }
  | { kind: "connect"; pid: number; family: string; address: string };

/**
 * Calls that change the file system: for each path they change, the argument holding its directory
 * descriptor (-1: none, the name is relative to the working directory) and the one holding its name.
 */
const CHANGES: Record<string, [number, number][]> = {
  rename: [[-1, 0], [-1, 1]],
  renameat: [[0, 1], [2, 3]],
  renameat2: [[0, 1], [2, 3]],
  unlink: [[-1, 0]],
  unlinkat: [[0, 1]],
  mkdir: [[-1, 0]],
  mkdirat: [[0, 1]],
  rmdir: [[-1, 0]],
  link: [[-1, 1]],
  linkat: [[2, 3]],
  symlink: [[-1, 1]],
  symlinkat: [[1, 2]],
  truncate: [[-1, 0]],
  chmod: [[-1, 0]],
  fchmodat: [[0, 1]],
  chown: [[-1, 0]],
  lchown: [[-1, 0]],
  fchownat: [[0, 1]],
  utimensat: [[0, 1]],
  mknod: [[-1, 0]],
  mknodat: [[0, 1]],
};

const WRITE_FLAGS = /\bO_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND)\b/;

export function parseTrace(text: string): TraceEvent[] {
  const events: TraceEvent[] = [];
  const pending = new Map<number, string>();
  for (const raw of text.split("\n")) {
    const m = /^(\d+)\s+(.*)$/.exec(raw);
    if (!m) continue;
    const pid = Number(m[1]);
    let line = m[2]!;
    if (line.startsWith("---") || line.startsWith("+++")) continue;
    if (line.endsWith("<unfinished ...>")) {
      pending.set(pid, line.slice(0, -"<unfinished ...>".length));
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>\s?(.*)$/.exec(line);
    if (resumed) {
      line = (pending.get(pid) ?? "") + resumed[1];
      pending.delete(pid);
    }
    events.push(...eventsOf(pid, line));
  }
  return events;
}

function eventsOf(pid: number, line: string): TraceEvent[] {
  const call = /^(\w+)\((.*)\)\s+=\s+(-?\d+|\?)(.*)$/.exec(line);
  if (!call) return [];
  const [, name, argText, result, rest] = call as unknown as [string, string, string, string, string];
  const args = splitArgs(argText);
  const ok = result !== "-1";
  if (name === "open" || name === "openat" || name === "openat2" || name === "creat") {
    const at = name === "openat" || name === "openat2";
    const flags = name === "creat" ? "O_CREAT" : args[at ? 2 : 1] ?? "";
    if (/\bO_PATH\b/.test(flags)) return [];
    const opened = /^<(.*)>/.exec(rest.trim())?.[1];
    const path = opened ?? resolveArg(args, at ? 0 : undefined, at ? 1 : 0);
    if (path === undefined) return [];
    if (WRITE_FLAGS.test(flags)) return [{ kind: "write", pid, path, call: name }];
    return ok ? [{ kind: "read", pid, path }] : [];
  }
  if (name === "execve" || name === "execveat") {
    if (!ok) return [];
    const at = name === "execveat";
    const path = resolveArg(args, at ? 0 : undefined, at ? 1 : 0) ?? "";
    return [{ kind: "exec", pid, path, argv: stringsOf(args[at ? 2 : 1] ?? "") }];
  }
  if (name === "connect") {
    const address = args[1] ?? "";
    const family = /sa_family=(\w+)/.exec(address)?.[1] ?? "unknown";
    return [{ kind: "connect", pid, family, address }];
  }
  return (CHANGES[name] ?? []).flatMap(([dirAt, nameAt]) => {
    const path = resolveArg(args, dirAt < 0 ? undefined : dirAt, nameAt);
    return path === undefined ? [] : [{ kind: "write" as const, pid, path, call: name }];
  });
}

/** The path named by argument `nameAt`, made absolute against the directory descriptor at `dirAt`. */
function resolveArg(args: string[], dirAt: number | undefined, nameAt: number): string | undefined {
  const name = stringsOf(args[nameAt] ?? "")[0];
  const dir = dirAt === undefined ? undefined : /<(.*)>$/.exec(args[dirAt] ?? "")?.[1];
  // A NULL name (`utimensat(fd, NULL, ...)`) changes the descriptor's own file.
  if (name === undefined) return dir;
  if (isAbsolute(name)) return normalize(name);
  return dir === undefined ? name : normalize(join(dir, name));
}

/** Splits an argument list at top-level commas (not inside strings, brackets or braces). */
function splitArgs(text: string): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "[" || c === "{" || c === "(") depth++;
    else if (c === "]" || c === "}" || c === ")") depth--;
    else if (c === "," && depth === 0) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  args.push(text.slice(start).trim());
  return args;
}

/** The C strings in an argument, unescaped (`["a", "b"]` gives both). */
function stringsOf(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => unescapeC(m[1]!));
}

function unescapeC(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{2}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e[0] === "x") return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ n: "\n", t: "\t", r: "\r", v: "\v", f: "\f" } as Record<string, string>)[e] ?? e;
  });
}
