/**
 * Shell patterns (`*`, `?`, `[...]`) as bash matches them against one file name: a leading `.`
 * must be matched explicitly, `.` and `..` never match a wildcard (bash 5.2's globskipdots), `/`
 * never matches. Used to judge a glob by the names it can match.
 *
 * ```ts
 * patternMatcher(".en?")(".env"); // true
 * patternMatcher("*")(".env");    // false: no dotglob
 * ```
 */

/** Does this word text hold a pattern character bash would expand (unquoted)? */
export function hasPattern(text: string): boolean {
  return /[*?[]/.test(text);
}

const CLASSES: Record<string, string> = {
  alpha: "a-zA-Z",
  digit: "0-9",
  alnum: "a-zA-Z0-9",
  upper: "A-Z",
  lower: "a-z",
  space: " \\t\\n\\r\\f\\v",
  blank: " \\t",
  punct: "!-\\/:-@\\[-`{-~",
  xdigit: "0-9A-Fa-f",
  word: "a-zA-Z0-9_",
  cntrl: "\\x00-\\x1f\\x7f",
  print: " -~",
  graph: "!-~",
};

/**
 * A predicate for one path segment's pattern. `ignoreCase` matches as a case-insensitive file
 * system does (macOS), for judging what a command could reach there.
 */
export function patternMatcher(pattern: string, ignoreCase = false): (name: string) => boolean {
  const regex = new RegExp(`^${patternSource(pattern)}$`, ignoreCase ? "is" : "s");
  const explicitDot = pattern.startsWith(".") || pattern.startsWith("\\.");
  const wild = hasPattern(pattern);
  return (name) => {
    if (wild && (name === "." || name === "..")) return false;
    if (wild && name.startsWith(".") && !explicitDot) return false;
    return regex.test(name);
  };
}

function patternSource(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\" && i + 1 < pattern.length) {
      out += escape(pattern[++i]!);
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const bracket = readBracket(pattern, i);
      if (bracket) {
        out += bracket.source;
        i = bracket.end;
      } else out += "\\[";
    } else out += escape(c);
  }
  return out;
}

/** `[abc]`, `[!a-z]`, `[^x]`, `[[:alpha:]]`; null when the bracket is not closed (it is literal). */
function readBracket(pattern: string, start: number): { source: string; end: number } | null {
  let i = start + 1;
  let negate = false;
  if (pattern[i] === "!" || pattern[i] === "^") {
    negate = true;
    i++;
  }
  let body = "";
  let first = true;
  for (; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "]" && !first) return { source: `[${negate ? "^" : ""}${body}]`, end: i };
    first = false;
    if (c === "[" && pattern[i + 1] === ":") {
      const close = pattern.indexOf(":]", i + 2);
      const name = close === -1 ? undefined : pattern.slice(i + 2, close);
      if (name !== undefined && CLASSES[name] !== undefined) {
        body += CLASSES[name];
        i = close + 1;
        continue;
      }
    }
    if (c === "\\" && i + 1 < pattern.length) {
      body += escape(pattern[++i]!);
      continue;
    }
    body += c === "-" ? "-" : escape(c);
  }
  return null;
}

function escape(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}
