/**
 * The macOS half: the sandbox-exec (Seatbelt) profile for a sandbox profile and the facts of one run.
 * Pure: the disk is read through `SeatbeltRun.fs` and the walk result, so it is generated (and
 * tested) on any platform; `toolrt sandbox --print-profile macos` prints it.
 *
 * How Seatbelt sees a path decides every rule here:
 * - It checks the path of the vnode, with symbolic links resolved: `/tmp/x` is `/private/tmp/x`,
 *   `$TMPDIR` is under `/private/var/folders`. Every path comes in already resolved, and the three
 *   system links every Mac has are mapped here too (`seatbeltPath`), so a profile printed elsewhere
 *   is the one a Mac needs.
 * - For a name being created or renamed, only the last component is the caller's spelling: the
 *   directories above it come from their vnodes. On a case-insensitive disk `.TOOLRT` is `.toolrt`,
 *   so a guarded name is matched in any letter case (and Unicode normalization): a `(subpath)` of
 *   its parent, which exists, plus a regex for the one component below it.
 * - It checks only the paths an operation names. Renaming a parent moves a guarded path without
 *   naming it (`mv .git g; edit g/hooks/x; mv g .git`), so every ancestor of a guarded path inside
 *   a writable root, and the root itself, cannot be renamed or removed; a guarded path that does
 *   not exist yet is guarded from its first missing component (it cannot be created at all, so no
 *   directory can be renamed into its place either).
 * - A hard link is a second path to the same file: links made before the run come from the walk
 *   (`scan.ts`) and are guarded by path like the rest; `file-link` (checked on the file linked)
 *   is allowed only for files in the writable roots and never for a guarded or read-denied one.
 *
 * Paths never appear as strings: they are parameters (`-D NAME=value`, `(param "NAME")`), since
 * sandbox-exec rejects a profile with a string over 1,024 bytes and a path may be longer. What
 * remains as strings (regexes for one path component, service and sysctl names) is short.
 *
 * Not enforceable with Seatbelt (see src/sandbox/README.md): process and memory caps (the launcher
 * sets RLIMIT_NPROC, `seatbelt.ts`), a private network namespace (localhost is the host's).
 */
import { basename, dirname, join, relative } from "node:path";
import { isInside } from "../tool/paths.ts";
import type { EntryKind } from "./paths.ts";
import type { SandboxProfile } from "./profile.ts";
import { nestedGitEntries } from "./protected.ts";
import type { ScanResult } from "./scan.ts";
import { SBPL_MAX_STRING_BYTES } from "./sbpl-check.ts";
import {
  type AllowEntry,
  IOKIT_CLASSES,
  MACH_SERVICES,
  SYSCTL_READ,
  SYSCTL_WRITE,
} from "./seatbelt-allow.ts";

/** The facts of one run the profile depends on, gathered by the caller (`seatbelt.ts`). */
export interface SeatbeltRun {
  /** The run's private temp dir, its real path. */
  tempDir: string;
  /** The host proxy's ports (HTTP and SOCKS) the command may connect to; empty without network. */
  proxyPorts: readonly number[];
  /** The terminal the command inherits (`/dev/ttysNNN`), which it may reopen; null when none. */
  sessionTty: string | null;
  /** Written into every denial in the system log, so the run's denials can be found. */
  tag: string;
  /** The disk at the start of the run, without following a final symlink. */
  fs: { kind(path: string): EntryKind };
  /** The walk over the writable roots: nested repositories and hard links to elsewhere. */
  scan: Pick<ScanResult, "nestedGitDirs" | "linkedOutside" | "linkedOutsideDirs" | "aliasesOfDenied">;
}

export interface Sbpl {
  /** The profile (`sandbox-exec -p TEXT`). */
  text: string;
  /** Its parameters in order (`-D NAME=value`). */
  params: Array<[string, string]>;
  /** Why the profile cannot be enforced as asked; the caller refuses to run when there is any. */
  problems: string[];
}

/** The symbolic links at the top of every macOS disk, to what Seatbelt sees. */
const MACOS_SYSTEM_LINKS: ReadonlyArray<readonly [string, string]> = [
  ["/tmp", "/private/tmp"],
  ["/var", "/private/var"],
  ["/etc", "/private/etc"],
];

/** `path` as Seatbelt sees it on a Mac: `/tmp/x` is `/private/tmp/x`. Idempotent. */
export function seatbeltPath(path: string): string {
  for (const [link, target] of MACOS_SYSTEM_LINKS) {
    if (isInside(path, link)) return target + path.slice(link.length);
  }
  return path;
}

/** An SBPL string literal: the generator's one way to escape (`\\` and `\"`). */
export function sbplString(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** A regex matching one path component spelled in any letter case and Unicode normalization. */
export function anyCaseComponent(name: string): string {
  return [...name.normalize("NFC")].map((char) => {
    const forms = [
      ...new Set([char, char.toLowerCase(), char.toUpperCase()].flatMap((c) => [c, c.normalize("NFD")])),
    ].filter((c) => [...c.normalize("NFC")].length === 1);
    if (forms.length === 1) return escapeRegex(char);
    if (forms.length === 2 && forms.every((c) => /^[A-Za-z]$/.test(c))) return `[${forms.join("")}]`;
    return `(${forms.map(escapeRegex).join("|")})`;
  }).join("");
}

const escapeRegex = (text: string) => text.replace(/[.^$*+?()[\]{}|\\/]/g, "\\$&");

/** `^/[^/]+...` as many times as `dir` has components: the regex for "directly below dir". */
const depthOf = (dir: string) => "^" + "/[^/]+".repeat(dir.split("/").filter(Boolean).length);

/** A path kept read-only or unreadable; `dir` guards everything below it too. */
interface Guard {
  path: string;
  dir: boolean;
  why: string;
}

/**
 * The Seatbelt profile for `profile` in one run.
 *
 * @example buildSbpl(profile, { tempDir, proxyPorts: [], sessionTty: null, tag: "toolrt-1a2b", fs, scan })
 */
export function buildSbpl(profile: SandboxProfile, run: SeatbeltRun): Sbpl {
  const params = new Params();
  const problems = [...profile.problems];
  const tag = sbplString(run.tag);
  const denied = (operations: string, filters: string[], note: string) =>
    filters.length === 0
      ? []
      : [`; ${note}`, `(deny ${operations}\n  ${filters.join("\n  ")}\n  (with message ${tag}))`];

  const roots = profile.writableRoots.map(seatbeltPath);
  const rootFilters = roots.map((root) => `(subpath ${params.numbered("WRITABLE_ROOT", root)})`);
  const tempFilter = `(subpath ${params.named("TEMP_DIR", seatbeltPath(run.tempDir))})`;

  const readOnly = readOnlyGuards(profile, run, problems);
  const unreadable = [...profile.denyRead, ...run.scan.aliasesOfDenied]
    .map((path) => ({ path: seatbeltPath(path), kind: run.fs.kind(path) }));
  const guardFilter = (guard: Omit<Guard, "why">) => {
    const parent = dirname(guard.path);
    const regex = `${depthOf(parent)}/${anyCaseComponent(basename(guard.path))}${
      guard.dir ? "(/.*)?$" : "$"
    }`;
    if (new TextEncoder().encode(regex).length > SBPL_MAX_STRING_BYTES) {
      problems.push(`${guard.path}: too deep, or too long a name, for a Seatbelt rule; guard a shorter path`);
    }
    return `(require-all (subpath ${params.numbered("PARENT", parent)}) (regex ${sbplString(regex)}))`;
  };

  // What may not be renamed or removed: every directory holding a guarded path up to its writable
  // root, and the unreadable paths themselves (a renamed copy would be readable).
  const unlinkable = new Map<string, boolean>();
  const holdersOf = (path: string) => {
    const root = roots.find((r) => isInside(path, r));
    if (!root || path === root) return;
    for (let dir = dirname(path); dir !== root; dir = dirname(dir)) {
      unlinkable.set(dir, unlinkable.get(dir) ?? false);
    }
    unlinkable.set(root, false);
  };
  for (const guard of readOnly) holdersOf(guard.path);
  for (const { path, kind } of unreadable) {
    if (kind === "missing" || !roots.some((r) => isInside(path, r))) continue;
    holdersOf(path);
    unlinkable.set(path, kind === "dir");
  }
  const unreadableFilters = unreadable.map(({ path }) => `(subpath ${params.numbered("DENY_READ", path)})`);
  const isReadOnly = (path: string) =>
    readOnly.some((g) => g.path === path || (g.dir && isInside(path, g.path)));
  const unlinkFilters = [...unlinkable].filter(([path]) => !isReadOnly(path)).map(([path, dir]) =>
    roots.includes(path) ? `(literal ${params.numbered("WRITABLE_ROOT", path)})` : guardFilter({ path, dir })
  );

  const body = [
    `(deny default (with message ${tag}))`,
    "",
    "; processes: start, signal and inspect only those of this sandbox",
    "(allow process-exec process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow process-info* (target same-sandbox))",
    "",
    "; what the system may be asked: allow-lists (src/sandbox/seatbelt-allow.ts)",
    "; os.cpus() counts processors through host_processor_info",
    "(allow mach-host*)",
    allowList(
      "sysctl-read",
      SYSCTL_READ,
      (e) => `(${e.prefix ? "sysctl-name-prefix" : "sysctl-name"} ${sbplString(e.name)})`,
    ),
    allowList("sysctl-write", SYSCTL_WRITE, (e) => `(sysctl-name ${sbplString(e.name)})`),
    allowList(
      "mach-lookup",
      MACH_SERVICES.filter((e) => !e.networkOnly || run.proxyPorts.length > 0),
      (e) => `(global-name ${sbplString(e.name)})`,
    ),
    allowList("iokit-open", IOKIT_CLASSES, (e) => `(iokit-registry-entry-class ${sbplString(e.name)})`),
    "(allow ipc-posix-sem)",
    '(allow ipc-posix-shm-read-data ipc-posix-shm-read-metadata (ipc-posix-name-prefix "apple.cfprefs."))',
    "(allow user-preference-read)",
    "",
    "; files: read everything but the read-denied paths and other terminals (their keystrokes)",
    "(allow file-read*)",
    ...denied("file-read*", unreadableFilters, "read-denied: denyRead, and files hard-linked to them"),
    ...denied(
      "file-read-data file-write*",
      ['(regex "^/dev/ttys[0-9]+$")'],
      "other terminals (their stat stays readable: ttyname needs it); the command's own: below",
    ),
    "",
    "; write in the writable roots and the run's temp dir; hard-link and clone the files in them",
    `(allow file-write* file-link file-clone\n  ${[...rootFilters, tempFilter].join("\n  ")})`,
    ...readOnly.flatMap((guard) =>
      denied("file-write* file-link", [guardFilter(guard)], `${guard.why}: ${JSON.stringify(guard.path)}`)
    ),
    ...denied(
      "file-write-unlink",
      unlinkFilters,
      "no renaming or removing what holds a guarded path, the writable roots themselves included",
    ),
    ...denied("file-link file-clone", unreadableFilters, "no second name for a read-denied file"),
    "",
    "; devices: null and random devices, the command's own descriptors, terminals",
    "(allow file-read* file-write-data file-ioctl",
    '  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (literal "/dev/tty"))',
    '(allow file-ioctl (literal "/dev/random") (literal "/dev/urandom"))',
    '(allow file-write-data (literal "/dev/stdout") (literal "/dev/stderr") (subpath "/dev/fd"))',
    "(allow pseudo-tty)",
    '(allow file-read* file-write-data file-ioctl (literal "/dev/ptmx"))',
    "; open only the terminals made inside (openpty) and the session's own",
    "(allow file-read* file-write-data file-ioctl",
    '  (require-all (regex "^/dev/ttys[0-9]+$") (extension "com.apple.sandbox.pty")))',
    ...(run.sessionTty
      ? [
        `(allow file-read* file-write-data file-ioctl (literal ${
          params.named("SESSION_TTY", run.sessionTty)
        }))`,
      ]
      : []),
    "; ioctl on a terminal descriptor the command already holds (isatty, window size)",
    '(allow file-ioctl (regex "^/dev/ttys[0-9]+$"))',
    "",
    ...networkRules(profile, run),
  ];
  const header = [
    "(version 1)",
    "; toolrt's sandbox profile for macOS (sandbox-exec -p THIS -D NAME=value ... -- CMD)",
    ...params.comments(),
  ];
  return { text: [...header, ...body].join("\n") + "\n", params: params.list(), problems };
}

function allowList(
  operation: string,
  entries: readonly AllowEntry[],
  filter: (e: AllowEntry) => string,
): string {
  return `(allow ${operation}\n  ${entries.map(filter).join("\n  ")})`;
}

function networkRules(profile: SandboxProfile, run: SeatbeltRun): string[] {
  const lines = ["; network: none but the proxy's ports on localhost"];
  for (const port of run.proxyPorts) lines.push(`(allow network-outbound (remote ip "localhost:${port}"))`);
  if (profile.allowLocalhost) {
    lines.push(
      "; allowLocalhost: listen on and connect to localhost, any port (the host's: other local services too)",
      '(allow network-bind (local ip "localhost:*"))',
      '(allow network-inbound (local ip "localhost:*"))',
      '(allow network-outbound (remote ip "localhost:*"))',
    );
  }
  return lines;
}

/**
 * Every path the command may not change: the protected entries of each writable root (a git
 * directory's only when it exists: `git init` must work), those of nested repositories, denyWrite,
 * and files hard-linked from outside. A symlink on the way to a protected path is a problem (writes
 * through it would land where no rule looks), as on Linux.
 */
function readOnlyGuards(profile: SandboxProfile, run: SeatbeltRun, problems: string[]): Guard[] {
  const guards: Guard[] = [];
  for (const root of profile.writableRoots) {
    const gitIsDir = run.fs.kind(join(root, ".git")) === "dir";
    const entries = [
      ...profile.protectedEntries.filter((e) => !e.insideGitDir || gitIsDir)
        .map((e) => ({ ...e, why: "protected path" })),
      ...run.scan.nestedGitDirs.filter((d) => isInside(d, root) && d !== join(root, ".git"))
        .flatMap((d) => nestedGitEntries(relative(root, d)))
        .map((e) => ({ ...e, why: "protected path (nested repository)" })),
    ];
    for (const entry of entries) {
      const guard = firstGuardable(root, entry.path, entry.kind === "dir", entry.why, run.fs, problems);
      if (guard) guards.push(guard);
    }
  }
  for (const path of profile.denyWrite) {
    const root = profile.writableRoots.find((r) => isInside(path, r));
    if (!root) continue; // outside every writable root: read-only already
    const dir = run.fs.kind(path) !== "file";
    if (root === path) guards.push({ path, dir: true, why: "denyWrite" });
    else {
      const guard = firstGuardable(root, relative(root, path), dir, "denyWrite", run.fs, problems);
      if (guard) guards.push(guard);
    }
  }
  for (const path of run.scan.linkedOutsideDirs) {
    guards.push({ path, dir: true, why: "every file in it is hard-linked outside the writable roots" });
  }
  for (const path of run.scan.linkedOutside) {
    guards.push({ path, dir: false, why: "hard link to a file outside the writable roots" });
  }
  const mapped = guards.map((g) => ({ ...g, path: seatbeltPath(g.path) }));
  // The first guard of each path, unless a directory guard holds it. Sets, not a search per guard:
  // a tree of hard-linked files (a package manager's store) gives thousands of guards.
  const dirs = new Set(mapped.filter((g) => g.dir).map((g) => g.path));
  const seen = new Set<string>();
  const heldByDir = (path: string) => {
    for (let child = path, dir = dirname(path); dir !== child; child = dir, dir = dirname(dir)) {
      if (dirs.has(dir)) return true;
    }
    return false;
  };
  return mapped.filter((g) => {
    if (seen.has(g.path)) return false;
    seen.add(g.path);
    return !heldByDir(g.path);
  });
}

/**
 * What to guard for `relativePath` below `root`: the path itself when it exists, else its first
 * missing component (nothing can be created there), or a file in the way (so it cannot be swapped
 * for a directory holding the path).
 */
function firstGuardable(
  root: string,
  relativePath: string,
  dir: boolean,
  why: string,
  fs: SeatbeltRun["fs"],
  problems: string[],
): Guard | null {
  const parts = relativePath.split("/");
  for (let i = 0; i < parts.length; i++) {
    const path = join(root, ...parts.slice(0, i + 1));
    const last = i === parts.length - 1;
    const kind = fs.kind(path);
    if (kind === "symlink") {
      problems.push(
        `${path} is a symbolic link inside the writable root ${root}; the ${why} ${
          join(root, relativePath)
        } ` +
          `cannot be kept read-only through it. Replace the link with the real file or directory, or run ` +
          `without this writable root.`,
      );
      return null;
    }
    if (kind === "missing") return { path, dir: last ? dir : true, why };
    if (last) return { path, dir: kind === "dir", why };
    if (kind !== "dir") return { path, dir: false, why: `${why} (a file where its directory would be)` };
  }
  return null;
}

/** The profile's parameters: one name per path, and the comment lines that list them. */
class Params {
  readonly #names = new Map<string, string>();
  readonly #counts = new Map<string, number>();

  /** `(param "NAME")` for `value`; a value met before keeps its first name. */
  named(name: string, value: string): string {
    if (!this.#names.has(value)) this.#names.set(value, name);
    return `(param ${sbplString(this.#names.get(value)!)})`;
  }

  /** `(param "PREFIX_N")` for `value`, N counting from 0 per prefix. */
  numbered(prefix: string, value: string): string {
    if (this.#names.has(value)) return this.named(prefix, value);
    const count = this.#counts.get(prefix) ?? 0;
    this.#counts.set(prefix, count + 1);
    return this.named(`${prefix}_${count}`, value);
  }

  list(): Array<[string, string]> {
    return [...this.#names].map(([value, name]) => [name, value]);
  }

  /** `; -D NAME="value"`, the value as JSON so that no path can end the comment early. */
  comments(): string[] {
    return this.list().map(([name, value]) => `; -D ${name}=${JSON.stringify(value)}`);
  }
}
