/**
 * Brace expansion as bash does it, first of all expansions: `/{bin,etc}` is `/bin /etc`,
 * `a{1..3}` is `a1 a2 a3`. The walker marks the braces and commas it read unquoted (quoted or
 * escaped ones are literal), so only those take part.
 *
 * ```ts
 * expandBraces(markBraces("/{bin,etc}")); // ["/bin", "/etc"]
 * ```
 */

/** Unquoted `{`, `,` and `}` as the walker marks them (private-use characters never typed in a command). */
export const OPEN = "\uE000";
export const COMMA = "\uE001";
export const CLOSE = "\uE002";
const MARKS = /[\uE000-\uE002]/g;
const LITERAL: Record<string, string> = { [OPEN]: "{", [COMMA]: ",", [CLOSE]: "}" };

/** More words than this from one word: the rest are dropped and the walker says so. */
export const MAX_BRACE_WORDS = 256;

/** Marks the unescaped braces and commas of unquoted word text (`\{` stays a literal brace). */
export function markBraces(text: string): string {
  if (!/[{},]/.test(text)) return text;
  return text.replace(/\\.|[{},]/gs, (m) => (m === "{" ? OPEN : m === "," ? COMMA : m === "}" ? CLOSE : m));
}

/** Marked text back to plain text, for words that are not brace-expanded (assignments, redirections). */
export function unmarkBraces(text: string): string {
  return text.includes(OPEN) || text.includes(CLOSE) || text.includes(COMMA)
    ? text.replace(MARKS, (m) => LITERAL[m]!)
    : text;
}

/** Every word a marked word expands to, in bash's order; at most `MAX_BRACE_WORDS`. */
export function expandBraces(marked: string): string[] {
  const out: string[] = [];
  expandInto(marked, out);
  return out.map(unmarkBraces);
}

function expandInto(text: string, out: string[]): void {
  if (out.length >= MAX_BRACE_WORDS) return;
  const found = firstExpansion(text);
  if (!found) {
    out.push(text);
    return;
  }
  const { start, end, alternatives } = found;
  const before = text.slice(0, start);
  const after = text.slice(end + 1);
  for (const alternative of alternatives) expandInto(before + alternative + after, out);
}

/** The first well-formed `{a,b}` or `{x..y[..step]}`; an open brace without one is literal. */
function firstExpansion(text: string): { start: number; end: number; alternatives: string[] } | null {
  const open: { start: number; commas: number[] }[] = [];
  let best: { start: number; end: number; alternatives: string[] } | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === OPEN) open.push({ start: i, commas: [] });
    else if (c === COMMA) open.at(-1)?.commas.push(i);
    else if (c === CLOSE) {
      const pair = open.pop();
      if (!pair || (best && best.start < pair.start)) continue;
      const { start, commas } = pair;
      const alternatives = commas.length > 0
        ? [start, ...commas].map((cut, k) => text.slice(cut + 1, [...commas, i][k]))
        : sequenceOf(text.slice(start + 1, i));
      if (alternatives) best = { start, end: i, alternatives };
    }
  }
  return best;
}

const NUMBERS = /^([-+]?\d+)\.\.([-+]?\d+)(?:\.\.([-+]?\d+))?$/;
const LETTERS = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.([-+]?\d+))?$/;

/** `1..5`, `05..10`, `a..e`, with an optional step; null when it is not a sequence. */
function sequenceOf(inner: string): string[] | null {
  const numbers = NUMBERS.exec(inner);
  const letters = numbers ? null : LETTERS.exec(inner);
  const match = numbers ?? letters;
  if (!match) return null;
  const from = numbers ? Number(match[1]) : match[1]!.charCodeAt(0);
  const to = numbers ? Number(match[2]) : match[2]!.charCodeAt(0);
  const step = Math.abs(Number(match[3] ?? 1)) || 1;
  const ends = numbers ? [match[1]!, match[2]!] : [];
  const width = ends.some((e) => /^[-+]?0\d/.test(e))
    ? Math.max(...ends.map((e) => e.replace(/^[-+]/, "").length))
    : 0;
  const out: string[] = [];
  const direction = from <= to ? 1 : -1;
  for (let v = from; direction > 0 ? v <= to : v >= to; v += direction * step) {
    if (out.length >= MAX_BRACE_WORDS) break;
    if (letters) out.push(String.fromCharCode(v));
    else out.push(width > 0 ? `${v < 0 ? "-" : ""}${String(Math.abs(v)).padStart(width, "0")}` : String(v));
  }
  return out;
}
