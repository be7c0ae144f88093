/**
 * What a path word can name, for judging catastrophes: every value its expansions can take
 * (`$HOME`, `${X:-/}`, `${X:?}`, `$PWD`), joined with every directory the command may run in,
 * normalised (`//`, `.`, `..`), and matched segment by segment as a pattern when it is an
 * unquoted glob (`/[a-z]*` can name `/bin`). Names are compared case-insensitively, as a macOS
 * file system does. The home directory is kept symbolic (`~`), so `~/..` is the directory that
 * holds the homes and `~/../..` is `/`.
 */
import type { Word } from "./command.ts";
import { inDirs } from "./cwd.ts";
import { hasPattern, patternMatcher } from "../tool/shell-pattern.ts";

/** A normalised absolute place: segments under `/`; `HOME` segments stand for the home directory. */
export interface Place {
  segments: string[];
  /** The last segment is an unquoted pattern. */
  glob: boolean;
  /** Segments that are patterns (unquoted globs), by index. */
  patterns: ReadonlySet<number>;
  /** The place is, or sweeps, a directory above the real home, named by its absolute path. */
  holdsHome?: boolean;
}

/**
 * Where the command line runs, when the caller knows: its working directory and the home
 * directory's absolute paths (as given and as resolved). Relative words are then judged from
 * `cwd`, and `/home/me`, `../..` or `/proc/self/root/home/me` name the home as `~` does.
 */
export interface Where {
  cwd: string;
  homes: readonly string[];
}

/** The home directory as two segments: the directory of homes and the user's own. */
const HOMES = "\uE010homes";
const USER = "\uE010user";
/** A value nothing can be said about (an unknown variable that is set and not empty). */
const OPAQUE = "\uE011";

/** Top-level directories whose loss breaks the system (Linux and macOS). */
const SYSTEM_DIRS: readonly string[] = [
  "bin",
  "boot",
  "dev",
  "etc",
  "home",
  "lib",
  "lib32",
  "lib64",
  "libx32",
  "opt",
  "proc",
  "root",
  "sbin",
  "snap",
  "srv",
  "sys",
  "usr",
  "var",
  "System",
  "Users",
  "Library",
  "Applications",
  "Volumes",
  "private",
  "cores",
];
/** Deeper directories whose loss breaks the system as surely as a top-level one. */
const SYSTEM_SUBDIRS: readonly string[] = [
  "/usr/bin",
  "/usr/sbin",
  "/usr/lib",
  "/usr/lib64",
  "/usr/libexec",
  "/usr/local/bin",
  "/usr/share",
  "/var/lib",
  "/private/etc",
  "/private/var",
  "/System/Library",
];
/** Names a wildcard in a system directory must be able to match to sweep it (`/usr/*`, `/etc/[a-p]*`). */
const SYSTEM_CHILDREN = [
  "bin",
  "lib",
  "lib64",
  "sbin",
  "share",
  "local",
  "include",
  "libexec",
  "passwd",
  "shadow",
  "sudoers",
  "fstab",
  "ssh",
  "systemd",
  "log",
  "cache",
  "spool",
  "bash",
  "sh",
  "python3",
  "libc.so.6",
  "vmlinuz",
  "grub",
  "Library",
];
/** Names a wildcard in a home directory must be able to match to sweep it (`~/*`, `~/.[!.]*`). */
const HOME_CHILDREN = [
  ".ssh",
  ".gnupg",
  ".config",
  ".local",
  ".bashrc",
  ".profile",
  ".zshrc",
  ".aws",
  "Documents",
  "Desktop",
  "Downloads",
  "Library",
  "Pictures",
  "src",
  "projects",
  "go",
];

/** More values than this from one word: the rest are not judged. */
const MAX_VALUES = 32;

/**
 * The places `word` can name when the command runs in one of `dirs` (`.` is the directory the
 * command line started in, whose place is unknown: relative words there name no place).
 * `oldDirs` are where `$OLDPWD` may point.
 */
export function placesOf(
  word: Word,
  dirs: readonly string[],
  oldDirs: readonly string[] = [],
  where?: Where,
): Place[] {
  const out: Place[] = [];
  for (const value of valuesOf(word.text, dirs, oldDirs)) {
    // `~+` and `~-` are where the shell is and was; relative values are joined with each directory.
    for (const path of inDirs(value, { dirs, oldDirs })) {
      const place = placeOf(where && isRelative(path) ? `${where.cwd}/${path}` : path, word.glob, where);
      if (place) out.push(place);
      if (out.length >= MAX_VALUES) return out;
    }
  }
  return out;
}

/**
 * The values a word's text can take: each `$NAME` or `${NAME...}` left unresolved by the walker
 * becomes what it can expand to (`${X:-/}` is `/` or unknown, `$X` may be empty).
 */
function valuesOf(text: string, dirs: readonly string[], oldDirs: readonly string[]): string[] {
  let values = [""];
  const pattern =
    /\$\{(#?)([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-=?+])((?:[^{}]|\{[^{}]*\})*)|([%#/^,:][^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;
  let last = 0;
  // `$(pwd)` is where the shell is, as `$PWD` is.
  const written = text.replace(/\$\(pwd\)|`pwd`/g, "$PWD");
  for (const m of written.matchAll(pattern)) {
    const [, length, braced, operator, word, trim, plain] = m;
    const name = (braced ?? plain)!;
    const options = length
      ? [OPAQUE]
      : trim !== undefined
      ? trimmed(name, trim)
      : expansions(name, operator, word ?? "", dirs, oldDirs);
    const literal = written.slice(last, m.index);
    values = values.flatMap((v) => options.map((o) => v + literal + o)).slice(0, MAX_VALUES);
    last = m.index! + m[0].length;
  }
  return values.map((v) => v + written.slice(last));
}

/**
 * `${HOME%/*}` is the directory of homes, `${X#prefix}` some part of X: cut or changed values
 * may be shorter, so home may become its parent and an unknown value may become empty.
 */
function trimmed(name: string, operation: string): string[] {
  if (name !== "HOME") return ["", OPAQUE];
  return operation.startsWith("%") ? ["~/..", "~", "/"] : ["~", OPAQUE];
}

function expansions(
  name: string,
  operator: string | undefined,
  word: string,
  dirs: readonly string[],
  oldDirs: readonly string[],
): string[] {
  const known = name === "HOME" ? ["~"] : name === "PWD" ? [...dirs] : name === "OLDPWD" ? [...oldDirs] : [];
  // Unknown and unset, or set to something nothing can be said about.
  const set = known.length > 0 ? known : [OPAQUE];
  const unset = known.length > 0 ? [] : [""];
  const alternative = valuesOf(word, dirs, oldDirs);
  switch (operator) {
    case ":-":
    case ":=":
      return [...set, ...(known.length > 0 ? [] : alternative)];
    case "-":
    case "=":
      return [...set, ...unset, ...(known.length > 0 ? [] : alternative)];
    case ":?":
    case "?":
      return set;
    case ":+":
    case "+":
      return ["", ...alternative];
    default:
      return [...set, ...unset];
  }
}

/** Relative to the directory the line started in (not `/`, `~`, `~user`, or `~-`'s unknown place). */
function isRelative(path: string): boolean {
  return !path.startsWith("/") && !path.startsWith("~");
}

/**
 * `/proc/self/root`, `/proc/thread-self/root` and `/proc/PID/root` are the process's `/`; its
 * `cwd` links are where it runs, known only with `where`.
 */
const PROC_LINK = /^(?:self|thread-self|\d+)$/;

/**
 * An absolute path that goes through the process's own `/proc` links (`/proc/self/cwd/a.txt`,
 * `/proc/self/root/etc`), as the file it reaches when run in `cwd`: the same reading catastrophes
 * get, for rules on paths. Other absolute paths come back normalised.
 */
export function throughProcLinks(path: string, cwd: string): string {
  const place = placeOf(path, false, { cwd, homes: [] });
  return place === null ? path : `/${place.segments.join("/")}`;
}

/** An absolute or home path normalised; null for a place relative to an unknown directory. */
function placeOf(path: string, glob: boolean, where?: Where): Place | null {
  const absolute = path.startsWith("/") ? path : homeForm(path);
  if (absolute === null) return null;
  let segments: string[] = [];
  const patterns = new Set<number>();
  for (const part of absolute.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      segments.pop();
      patterns.delete(segments.length);
      continue;
    }
    if (segments.length === 2 && segments[0] === "proc" && PROC_LINK.test(segments[1]!)) {
      if (part === "root") {
        segments = [];
        patterns.clear();
        continue;
      }
      if (part === "cwd" && where) {
        segments = where.cwd.split("/").filter(Boolean);
        patterns.clear();
        continue;
      }
    }
    if (glob && hasPattern(part)) patterns.add(segments.length);
    segments.push(part);
  }
  const place: Place = { segments, glob: patterns.has(segments.length - 1), patterns };
  return where ? homeNamed(place, where) : place;
}

/** A place under the real home written as `~` (so `~`'s rules apply), and above it marked. */
function homeNamed(place: Place, where: Where): Place {
  for (const home of where.homes) {
    const parts = home.split("/").filter(Boolean);
    const { segments } = place;
    const literal = (i: number) =>
      !place.patterns.has(i) && segments[i]!.toLowerCase() === parts[i]!.toLowerCase();
    const common = segments.findIndex((_, i) => i >= parts.length || !literal(i));
    const shared = common === -1 ? segments.length : common;
    if (shared === segments.length && segments.length < parts.length) return { ...place, holdsHome: true };
    // `/tmp/u/*` when the home is `/tmp/u/home`: the wildcard can be the home or a directory above it.
    const last = segments.length - 1;
    if (
      shared === last && last < parts.length && place.patterns.has(last) &&
      patternMatcher(segments[last]!, true)(parts[last]!)
    ) return { ...place, holdsHome: true };
    if (shared === parts.length) {
      const patterns = new Set([...place.patterns].map((i) => i - parts.length + 2));
      return { segments: [HOMES, USER, ...segments.slice(parts.length)], glob: place.glob, patterns };
    }
  }
  return place;
}

/** `~` and `~/x` as absolute segments under the symbolic homes; other relative text is unknown. */
function homeForm(path: string): string | null {
  if (path === "~" || path.startsWith("~/")) return `/${HOMES}/${USER}${path.slice(1)}`;
  // `~user`: another user's home, somewhere in the directory of homes.
  const user = /^~([A-Za-z_][\w.-]*)(\/.*)?$/.exec(path);
  if (user) return `/${HOMES}/${user[1]}${user[2] ?? ""}`;
  return null;
}

/** Can segment `i` of `place` name `name`? Patterns by what they match, literals case-insensitively. */
function segmentCanBe(place: Place, i: number, name: string): boolean {
  const segment = place.segments[i];
  if (segment === undefined) return false;
  if (segment === OPAQUE || segment.startsWith(OPAQUE)) return false;
  if (place.patterns.has(i)) return patternMatcher(segment, true)(name);
  return segment.toLowerCase() === name.toLowerCase();
}

/** Can the first `count` segments of `place` be the directory `path` (`/usr/bin`, `~`)? */
function prefixCanBe(place: Place, count: number, path: string): boolean {
  const parts = path === "~" ? [HOMES, USER] : path.split("/").filter(Boolean);
  return parts.length === count && parts.every((part, i) => segmentCanBe(place, i, part));
}

/** What a place can be, for the catastrophe table. */
export const can = {
  /** `/` itself. */
  beRoot: (p: Place) => p.segments.length === 0,
  /** A top-level system directory, a deeper one as vital (`/usr/bin`), the homes or a home. */
  beSystemDir(p: Place): boolean {
    const [first, second] = p.segments;
    if (p.segments.length === 1) {
      return first === HOMES || SYSTEM_DIRS.some((d) => segmentCanBe(p, 0, d));
    }
    if (p.segments.length === 2 && first === HOMES) return second !== OPAQUE;
    return SYSTEM_SUBDIRS.some((d) => prefixCanBe(p, p.segments.length, d));
  },
  /** Everything in `/`, a system directory or a home: a wildcard there that matches what matters. */
  beSweep(p: Place): boolean {
    if (!p.glob) return false;
    const parent: Place = {
      ...p,
      segments: p.segments.slice(0, -1),
      glob: p.patterns.has(p.segments.length - 2),
    };
    const last = p.segments.length - 1;
    if (can.beRoot(parent)) return SYSTEM_DIRS.some((d) => segmentCanBe(p, last, d));
    if (parent.segments.length === 1 && parent.segments[0] === HOMES) return true;
    if (prefixCanBe(p, last, "~")) return HOME_CHILDREN.some((c) => segmentCanBe(p, last, c));
    return can.beSystemDir(parent) && SYSTEM_CHILDREN.some((c) => segmentCanBe(p, last, c));
  },
  /** The home directory or a directory above it. */
  holdHome: (p: Place) =>
    p.segments.length === 0 || p.holdsHome === true ||
    (p.segments[0] === HOMES && p.segments.length <= 2 && p.segments[1] !== OPAQUE),
};

/** The place as text, for messages: `/bin`, `~/..`-style home forms shown as `~`. */
export function showPlace(place: Place): string {
  const text = `/${place.segments.join("/")}`;
  return text.replace(`/${HOMES}/${USER}`, "~").replace(`/${HOMES}`, "~/..").replaceAll(OPAQUE, "$?");
}

/** Can `place` be a path matching `regex` (tested on the text, or on probes for patterns)? */
export function pathCanBe(place: Place, regex: RegExp, probes: readonly string[]): boolean {
  if (place.patterns.size === 0) return regex.test(`/${place.segments.join("/")}`);
  return probes.some((probe) => {
    const parts = probe.split("/").filter(Boolean);
    return parts.length === place.segments.length && parts.every((part, i) => segmentCanBe(place, i, part)) &&
      regex.test(probe);
  });
}
