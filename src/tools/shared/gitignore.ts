/**
 * `.gitignore` rules as git reads them: per-directory files, later rules winning, `!` re-including,
 * a trailing `/` for directories only, a `/` in the pattern anchoring it to the file's directory.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

interface Rule {
  regex: RegExp;
  negated: boolean;
  dirOnly: boolean;
}

interface RuleFile {
  /** The directory holding the `.gitignore`; patterns are relative to it. */
  base: string;
  rules: Rule[];
}

/** The rules in force in one directory: its own `.gitignore` on top of its parents'. */
export class IgnoreRules {
  private constructor(private readonly files: readonly RuleFile[]) {}

  static empty(): IgnoreRules {
    return new IgnoreRules([]);
  }

  /** The rules of `dir` and every directory above it, for a search that starts in `dir`. */
  static forRoot(dir: string): IgnoreRules {
    const ancestors: string[] = [];
    for (let at = dir;; at = dirname(at)) {
      ancestors.unshift(at);
      if (dirname(at) === at) break;
    }
    return ancestors.reduce((rules, at) => rules.enter(at), IgnoreRules.empty());
  }

  /** The rules inside `dir`, adding its `.gitignore` when it has one. */
  enter(dir: string): IgnoreRules {
    let text: string;
    try {
      text = readFileSync(join(dir, ".gitignore"), "utf8");
    } catch {
      return this;
    }
    const rules = parseGitignore(text);
    return rules.length ? new IgnoreRules([...this.files, { base: dir, rules }]) : this;
  }

  ignores(path: string, isDir: boolean): boolean {
    let ignored = false;
    for (const file of this.files) {
      const rel = relative(file.base, path).split(sep).join("/");
      if (rel === "" || rel.startsWith("..")) continue;
      for (const rule of file.rules) {
        if ((!rule.dirOnly || isDir) && rule.regex.test(rel)) ignored = !rule.negated;
      }
    }
    return ignored;
  }
}

function parseGitignore(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const negated = line.startsWith("!");
    if (negated) line = line.slice(1);
    if (line.startsWith("\\#") || line.startsWith("\\!")) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.slice(0, -1);
    if (line === "") continue;
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    const body = globToRegexSource(line);
    rules.push({ regex: new RegExp(anchored ? `^${body}$` : `(?:^|/)${body}$`), negated, dirOnly });
  }
  return rules;
}

function globToRegexSource(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (glob.startsWith("**/", i) && (i === 0 || glob[i - 1] === "/")) {
      out += "(?:.*/)?";
      i += 2;
    } else if (glob.startsWith("/**", i) && i + 3 === glob.length) {
      out += "/.*";
      i += 2;
    } else if (c === "*") {
      out += "[^/]*";
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[" && glob.indexOf("]", i + 2) !== -1) {
      const close = glob.indexOf("]", i + 2);
      const body = glob.slice(i + 1, close).replace(/^!/, "^").replaceAll("\\", "\\\\");
      out += `[${body}]`;
      i = close;
    } else if (c === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob[++i]!);
    } else {
      out += escapeRegex(c);
    }
  }
  return out;
}

function escapeRegex(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
