/** Terminal styling through `node:util` styleText, and nothing at all when colour is off (pipes, `NO_COLOR`, tests). */
import { styleText } from "node:util";

const FORMATS = {
  bold: "bold",
  dim: "dim",
  strike: "strikethrough",
  red: "red",
  green: "green",
  yellow: "yellow",
  cyan: "cyan",
} as const;

export type Style = keyof typeof FORMATS;

export function paint(text: string, style: Style, opts: { color: boolean }): string {
  if (!opts.color || text === "") return text;
  return styleText(FORMATS[style], text, { validateStream: false });
}

/** Shortens `text` to `width` columns with an ellipsis. */
export function fit(text: string, width: number): string {
  if (width <= 1 || text.length <= width) return text;
  return `${text.slice(0, width - 1)}…`;
}

/** Cuts a line to the terminal width (at least 20 columns) with an ellipsis. */
export function clip(text: string, columns: number): string {
  return fit(text, Math.max(columns, 20));
}
