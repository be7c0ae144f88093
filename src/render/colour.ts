/** ANSI styling that disappears when colour is off (pipes, `NO_COLOR`, tests). */

const CODES = {
  bold: [1, 22],
  dim: [2, 22],
  strike: [9, 29],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
} as const;

export type Style = keyof typeof CODES;

export function paint(text: string, style: Style, opts: { color: boolean }): string {
  if (!opts.color || text === "") return text;
  const [open, close] = CODES[style];
  return `\x1b[${open}m${text}\x1b[${close}m`;
}

/** Shortens `text` to `width` columns with an ellipsis. */
export function fit(text: string, width: number): string {
  if (width <= 1 || text.length <= width) return text;
  return `${text.slice(0, width - 1)}…`;
}
