/**
 * Line continuations. bash drops every backslash-newline before it splits words, so `r\<newline>m`
 * is `rm` and `-ex\<newline>ec` is `-exec`; tree-sitter reads them as two words. The analyzer
 * judges the joined text. Kept as written: single-quoted and `$'...'` text, comments, and the
 * bodies of here-documents whose delimiter is quoted (bash keeps the pair there too).
 *
 * ```ts
 * joinContinuations("r\\\nm -rf /"); // "rm -rf /"
 * joinContinuations("echo 'a\\\nb'"); // unchanged
 * ```
 */

/** Where the reader is: shell code (top level or inside `$(...)`), double quotes, or backquotes. */
type Context = { kind: "code"; parens: number } | { kind: "double" } | { kind: "backquote" };

interface HereDocument {
  delimiter: string;
  quoted: boolean;
  stripTabs: boolean;
}

const WORD_START = /[\s;&|()<>]/;
const DELIMITER_END = /[\s;&|()<>]/;

export function joinContinuations(command: string): string {
  if (!command.includes("\\\n")) return command;
  let out = "";
  const stack: Context[] = [{ kind: "code", parens: 0 }];
  let pending: HereDocument[] = [];
  let i = 0;
  const n = command.length;
  /** Copies up to and including the first `end` at or after `from` (or to the end); returns the next index. */
  const copyThrough = (from: number, end: string, escapes: boolean): number => {
    let j = from;
    while (j < n && command[j] !== end) j += escapes && command[j] === "\\" ? 2 : 1;
    out += command.slice(i, Math.min(j + 1, n));
    return j + 1;
  };
  while (i < n) {
    const context = stack.at(-1)!;
    const c = command[i]!;
    if (c === "\\") {
      if (command[i + 1] === "\n") i += 2;
      else {
        out += command.slice(i, i + 2);
        i += 2;
      }
      continue;
    }
    if (context.kind === "double") {
      if (c === '"') stack.pop();
      else if (c === "`") stack.push({ kind: "backquote" });
      else if (c === "$" && command[i + 1] === "(") {
        stack.push({ kind: "code", parens: 1 });
        out += "$(";
        i += 2;
        continue;
      }
      out += c;
      i++;
      continue;
    }
    // Shell code or backquotes: quotes, comments, substitutions and here-documents start here.
    if (c === "'") {
      i = copyThrough(i + 1, "'", false);
      continue;
    }
    if (c === "$" && command[i + 1] === "'") {
      out += "$";
      i++;
      i = copyThrough(i + 1, "'", true);
      continue;
    }
    if (c === "#" && (out === "" || WORD_START.test(out.at(-1)!))) {
      const end = command.indexOf("\n", i);
      out += command.slice(i, end === -1 ? n : end);
      i = end === -1 ? n : end;
      continue;
    }
    if (c === '"') stack.push({ kind: "double" });
    else if (c === "`") {
      if (context.kind === "backquote") stack.pop();
      else stack.push({ kind: "backquote" });
    } else if (context.kind === "code" && c === "(") context.parens++;
    else if (context.kind === "code" && c === ")" && context.parens > 0) {
      context.parens--;
      if (context.parens === 0 && stack.length > 1) stack.pop();
    } else if (c === "$" && command[i + 1] === "(") {
      stack.push({ kind: "code", parens: 1 });
      out += "$(";
      i += 2;
      continue;
    } else if (c === "<" && command[i + 1] === "<" && command[i + 2] !== "<") {
      const start = i;
      i += command[i + 2] === "-" ? 3 : 2;
      const doc = readDelimiter(command, i, command[start + 2] === "-");
      out += command.slice(start, doc.end);
      i = doc.end;
      if (doc.heredoc) pending.push(doc.heredoc);
      continue;
    } else if (c === "\n" && pending.length > 0) {
      out += c;
      i = copyBodies(command, i + 1, pending, (text) => (out += text));
      pending = [];
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** Reads the delimiter word after `<<` or `<<-`, joining continuations inside it as bash does. */
function readDelimiter(
  command: string,
  from: number,
  stripTabs: boolean,
): { end: number; heredoc?: HereDocument } {
  let i = from;
  while (command[i] === " " || command[i] === "\t") i++;
  let delimiter = "";
  let quoted = false;
  while (i < command.length && !DELIMITER_END.test(command[i]!)) {
    const c = command[i]!;
    if (c === "\\" && command[i + 1] === "\n") {
      i += 2;
      continue;
    }
    if (c === "'" || c === '"') {
      quoted = true;
      const end = command.indexOf(c, i + 1);
      const close = end === -1 ? command.length : end;
      delimiter += command.slice(i + 1, close);
      i = close + 1;
      continue;
    }
    if (c === "\\") {
      quoted = true;
      delimiter += command[i + 1] ?? "";
      i += 2;
      continue;
    }
    delimiter += c;
    i++;
  }
  return delimiter === "" ? { end: i } : { end: i, heredoc: { delimiter, quoted, stripTabs } };
}

/**
 * Copies the bodies of the here-documents started on the line that just ended, each up to its
 * delimiter line; unquoted ones have their continuations joined first, as bash reads them.
 */
function copyBodies(
  command: string,
  from: number,
  docs: HereDocument[],
  emit: (text: string) => void,
): number {
  let i = from;
  for (const doc of docs) {
    while (i < command.length) {
      let end = command.indexOf("\n", i);
      if (end === -1) end = command.length;
      let line = command.slice(i, end);
      // An unquoted body joins a line ending in an unescaped backslash with the next one.
      while (!doc.quoted && /(?:^|[^\\])(?:\\\\)*\\$/.test(line) && end < command.length) {
        const next = command.indexOf("\n", end + 1);
        const stop = next === -1 ? command.length : next;
        line = line.slice(0, -1) + command.slice(end + 1, stop);
        end = stop;
      }
      emit(line + (end < command.length ? "\n" : ""));
      i = end + 1;
      if ((doc.stripTabs ? line.replace(/^\t+/, "") : line) === doc.delimiter) break;
    }
  }
  return i;
}
