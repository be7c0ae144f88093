/**
 * Path rules (`Read(./src/**)`, `Edit(//etc/**)`, `Read(~/.ssh/**)`, `Read(.env)`): gitignore-style
 * globs anchored as Claude Code anchors them (claude-code-compat.md §2.3).
 */
import { posix } from "node:path";
import type { Effect } from "./types.ts";
import { escapeRegex } from "./wildcard.ts";

/** The directories a path rule can be anchored at. */
export interface PathAnchors {
  /** Workspace root: `path` and `./path` patterns. */
  cwd: string;
  home: string;
  /** Where `/path` patterns start: the project root, the settings dir, the policy file's dir. */
  sourceBase: string;
}

/**
 * Turns a path pattern into an absolute glob. Bare names match at any depth (`.env` = `** /.env`);
 * a single-segment dir pattern (`src/**`) is anchored for allow but matches any `src` dir below cwd
 * for ask and deny.
 */
export function anchorPathPattern(pattern: string, anchors: PathAnchors, effect: Effect): string {
  if (pattern.startsWith("//")) return posix.normalize(pattern.slice(1));
  if (pattern === "~" || pattern.startsWith("~/")) return join(anchors.home, pattern.slice(2));
  if (pattern.startsWith("/")) return join(anchors.sourceBase, pattern.slice(1));
  if (pattern.startsWith("./") || pattern === ".") return join(anchors.cwd, pattern.slice(2));
  if (!pattern.includes("/")) return join(anchors.cwd, `**/${pattern}`);
  const singleDir = /^[^/]+\/\*\*$/.test(pattern);
  if (singleDir && effect !== "allow") return join(anchors.cwd, `**/${pattern}`);
  return join(anchors.cwd, pattern);
}

function join(base: string, rest: string): string {
  return rest === "" ? posix.normalize(base) : posix.join(base, rest);
}

/**
 * Compiles an absolute glob: `**` spans directories, `*` and `?` stay within one segment, `[...]` is
 * a class. Like gitignore, a pattern naming a directory also covers everything inside it, unless
 * `inside` is false (the path itself only).
 */
export function compileGlob(glob: string, ignoreCase = false, inside = true): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const atSegmentStart = i === 0 || glob[i - 1] === "/";
      const next = glob[i + 2];
      i++;
      if (atSegmentStart && next === "/") {
        source += "(?:.*/)?";
        i++;
      } else if (atSegmentStart && next === undefined) {
        source = source.endsWith("/") ? `${source.slice(0, -1)}(?:/.*)?` : `${source}.*`;
      } else {
        source += "[^/]*";
      }
    } else if (c === "*") {
      source += "[^/]*";
    } else if (c === "?") {
      source += "[^/]";
    } else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close === -1) source += "\\[";
      else {
        const body = glob.slice(i + 1, close).replace(/^!/, "^").replace(/\\/g, "\\\\");
        source += `[${body}]`;
        i = close;
      }
    } else {
      source += escapeRegex(c);
    }
  }
  return new RegExp(`^${source}${inside ? "(?:/.*)?" : ""}$`, ignoreCase ? "i" : "");
}
