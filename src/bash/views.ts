/**
 * Quote-aware views of a raw command, computed in one pass. Checks look for dangerous text only
 * where the shell would act on it: `echo '$(x)'` prints `$(x)`, `echo "$(x)"` runs x.
 */

export interface QuoteViews {
  /** Text outside all quotes; quoted content and quote characters removed. */
  fullyUnquoted: string;
  /** Single-quoted content removed, double-quoted content kept (without its quote characters). */
  withDoubleQuotes: string;
  /** Like fullyUnquoted but the quote characters stay (`echo ''-x` → `echo ''-x`). */
  keepQuoteChars: string;
  /** Unquoted comments (from `#` to the end of the line), as the shell would skip them. */
  comments: string[];
  /** A quoted string holds a newline followed by a line that starts with `#`. */
  quotedNewlineHash: boolean;
  /** Characters escaped with a backslash outside quotes, in order (`a\ b\;` → ` ;`). */
  escaped: string;
  /** An empty quote pair glued to other characters (`r''m`, `""-rf`): it hides the real word. */
  emptyQuotesInWord: boolean;
  /** The command ends inside a quote. */
  unterminatedQuote: boolean;
}

const WORD_BREAK = /[\s;&|()<>]/;

/**
 * Splits `command` into the views above. Backslash-escaped characters outside single quotes are
 * literal, so they appear in no view (a blank keeps positions apart).
 */
export function quoteViews(command: string): QuoteViews {
  let unquoted = "";
  let withDouble = "";
  let keepChars = "";
  let escaped = "";
  let emptyQuotesInWord = false;
  let quoteStart = 0;
  const comments: string[] = [];
  let quotedNewlineHash = false;
  let quote: "'" | '"' | "$'" | null = null;
  const n = command.length;
  for (let i = 0; i < n; i++) {
    const c = command[i]!;
    if (quote === null) {
      if (c === "\\") {
        unquoted += " ";
        withDouble += " ";
        keepChars += " ";
        escaped += command[++i] ?? "";
        continue;
      }
      if (c === "'" || c === '"') {
        quote = c;
        quoteStart = i;
        keepChars += c;
        continue;
      }
      if (c === "$" && (command[i + 1] === "'" || command[i + 1] === '"')) {
        quote = command[i + 1] === "'" ? "$'" : '"';
        keepChars += command.slice(i, i + 2);
        i++;
        continue;
      }
      if (c === "#" && (i === 0 || WORD_BREAK.test(command[i - 1]!))) {
        const end = command.indexOf("\n", i);
        comments.push(command.slice(i + 1, end === -1 ? n : end));
      }
      unquoted += c;
      withDouble += c;
      keepChars += c;
      continue;
    }
    if (c === "\n" && /^[ \t]*#/.test(command.slice(i + 1, i + 80))) quotedNewlineHash = true;
    if (quote === '"') {
      if (c === "\\" && i + 1 < n) {
        const next = command[i + 1]!;
        withDouble += '$`"\\\n'.includes(next) ? " " : c + next;
        i++;
        continue;
      }
      if (c === '"') {
        quote = null;
        keepChars += c;
        emptyQuotesInWord ||= isGluedEmpty(command, quoteStart, i);
        continue;
      }
      withDouble += c;
      continue;
    }
    if (quote === "$'" && c === "\\") {
      i++;
      continue;
    }
    if (c === "'") {
      quote = null;
      keepChars += c;
      emptyQuotesInWord ||= isGluedEmpty(command, quoteStart, i);
    }
  }
  return {
    fullyUnquoted: unquoted,
    withDoubleQuotes: withDouble,
    keepQuoteChars: keepChars,
    comments,
    quotedNewlineHash,
    escaped,
    emptyQuotesInWord,
    unterminatedQuote: quote !== null,
  };
}

/** `open`/`close` are the positions of a quote pair; true when it is empty and touches a word. */
function isGluedEmpty(command: string, open: number, close: number): boolean {
  if (close !== open + 1) return false;
  const glued = (c: string | undefined) => c !== undefined && !/[\s;&|()<>='"]/.test(c);
  return glued(command[open - 1]) || glued(command[close + 1]);
}
